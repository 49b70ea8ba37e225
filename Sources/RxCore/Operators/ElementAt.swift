extension Observable {
  // rx:value-overload
  /// The element at `index`, then completed; fails with `RxError.argumentOutOfRange` if the
  /// source completes first.
  public func element(at index: Int) -> Observable<Element> {
    CountingProducer<Element, ElementAtRule>(source: self, index)
  }
}

/// Forwards the element after `count` others, then completes.
/// The producer, its sink and their Value leaves are `Counting`'s (Counting.swift).
enum ElementAtRule: CountingRule {
  @inline(__always) static func next<Element>(_ sink: CountingSink<Element, Self>, at element: UnsafePointer<Element>) {
    if sink.remaining == 0 {
      sink.forwardNext(at: element)
      sink.forwardTerminal(.completed)
    }
    sink.remaining -= 1
  }

  /// A source that completes before the element fails the stream.
  @inline(__always) static func completed<Element>(_ sink: CountingSink<Element, Self>) {
    sink.forwardTerminal(.error(RxError.argumentOutOfRange))
  }
}
