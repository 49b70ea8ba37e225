extension Observable {
  // rx:value-overload
  /// Drops the first `count` elements.
  public func skip(_ count: Int) -> Observable<Element> {
    CountingProducer<Element, SkipRule>(source: self, count)
  }
}

/// Drops the first `count` elements.
/// The producer, its sink and their Value leaves are `Counting`'s (Counting.swift).
enum SkipRule: CountingRule {
  @inline(__always) static func next<Element>(_ sink: CountingSink<Element, Self>, at element: UnsafePointer<Element>) {
    if sink.remaining > 0 {
      sink.remaining -= 1
    } else {
      sink.forwardNext(at: element)
    }
  }
}
