extension Observable {
  // rx:value-overload map=SkipProducer:ValueSkipProducer
  /// Drops the first `count` elements.
  public func skip(_ count: Int) -> Observable<Element> {
    SkipProducer(source: self, count: count)
  }
}

/// The producer, its sink and their Value leaves are `Counting`'s (Counting.swift).
typealias SkipProducer<Element> = CountingProducer<Element, SkipRule>

/// Drops the first `count` elements.
enum SkipRule: CountingRule {
  @inline(__always) static func next<Element>(_ sink: CountingSink<Element, Self>, at element: UnsafePointer<Element>) {
    if sink.remaining > 0 {
      sink.remaining -= 1
    } else {
      sink.forwardNext(at: element)
    }
  }
}
