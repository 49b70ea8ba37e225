extension Observable {
  // rx:value-overload
  /// The last `count` elements, emitted when the source completes.
  public func takeLast(_ count: Int) -> Observable<Element> {
    CountingProducer<Element, TakeLastRule>(source: self, Swift.max(count, 0))
  }
}

/// Keeps the newest `count` elements and forwards them when the source completes.
/// The producer, its sink and their Value leaves are `Counting`'s (Counting.swift).
enum TakeLastRule: CountingRule {
  @inline(__always) static func next<Element>(_ sink: CountingSink<Element, Self>, at element: UnsafePointer<Element>) {
    next(sink, owned: element.pointee)
  }

  /// The event's own element kept (the leaf copies it into an event once).
  @inline(__always) static func next<Element>(_ sink: CountingSink<Element, Self>, owned element: Element) {
    if sink.remaining > 0 { sink.held.append(element, keepingLast: sink.remaining) }
  }

  @inline(__always) static func completed<Element>(_ sink: CountingSink<Element, Self>) {
    while let element = sink.held.popFirst() {
      if sink.wantsNoMoreEvents { break }
      sink.forwardNext(owned: element)
    }
    sink.forwardTerminal(.completed)
  }
}
