extension Observable {
  // rx:value-overload
  /// The first `count` elements, then completed. `take(0)` completes without subscribing.
  public func take(_ count: Int) -> Observable<Element> {
    if count <= 0 { return Empty() }
    return CountingProducer<Element, TakeRule>(source: self, count)
  }
}

/// Forwards `count` elements, then completes.
/// The producer, its sink and their Value leaves are `Counting`'s (Counting.swift).
enum TakeRule: CountingRule {
  @inline(__always) static func next<Element>(_ sink: CountingSink<Element, Self>, at element: UnsafePointer<Element>) {
    if sink.remaining <= 0 { return }
    sink.remaining -= 1
    sink.forwardNext(at: element)
    if sink.remaining == 0 { sink.forwardTerminal(.completed) }
  }
}
