extension Observable {
  // rx:value-overload
  /// All but the last `count` elements: each element is forwarded once `count` newer ones
  /// have arrived, so the last `count` are never emitted. `skipLast(0)` mirrors the source.
  public func skipLast(_ count: Int) -> Observable<Element> {
    CountingProducer<Element, SkipLastRule>(source: self, Swift.max(count, 0))
  }
}

/// Forwards each element once `count` newer ones arrived; the last `count` are dropped.
/// The producer, its sink and their Value leaves are `Counting`'s (Counting.swift).
enum SkipLastRule: CountingRule {
  @inline(__always) static func next<Element>(_ sink: CountingSink<Element, Self>, at element: UnsafePointer<Element>) {
    if sink.remaining == 0 { return sink.forwardNext(at: element) }
    sink.held.append(element.pointee)
    if sink.held.count > sink.remaining, let oldest = sink.held.popFirst() { sink.forwardNext(owned: oldest) }
  }

  @inline(__always) static func completed<Element>(_ sink: CountingSink<Element, Self>) {
    sink.held.removeAll()
    sink.forwardTerminal(.completed)
  }
}
