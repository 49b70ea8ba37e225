extension Observable {
  // rx:value-overload map=SwitchIfEmptyProducer:ValueSwitchIfEmptyProducer
  /// Mirrors the source; if it completes without an element, continues with `fallback`
  /// (subscribed only then).
  public func ifEmpty(switchTo fallback: Observable<Element>) -> Observable<Element> {
    SwitchIfEmptyProducer(source: self) { terminal, sawElement in
      if case .completed = terminal, !sawElement { return fallback }
      return nil
    }
  }
}

/// The producer, its sink and their Value leaves are `ContinuingSink`'s (ContinuingSink.swift).
typealias SwitchIfEmptyProducer<Element> = ContinuingProducer<Element, SwitchIfEmptyRule>

/// Continues on a completion with no element before it.
enum SwitchIfEmptyRule: ContinuationRule {
  static var tracksElements: Bool { true }
}
