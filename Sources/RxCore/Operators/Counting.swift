/// skip, take, element(at:), skipLast and takeLast: one producer and one sink over a count
/// (and, for the last two, the newest elements); the `Rule` (a type parameter, folded away in
/// each sink's code) says what an element and the completion do.
protocol CountingRule {
  /// The element at `element`, with `sink.remaining` the count left (skip, take, element(at:))
  /// or how many of the newest elements are held back (skipLast, takeLast).
  static func next<Element>(_ sink: CountingSink<Element, Self>, at element: UnsafePointer<Element>)
  /// The element of a `.next` event (by default, `next(_:at:)` where it lies).
  static func next<Element>(_ sink: CountingSink<Element, Self>, owned element: Element)
  /// The source's completion (by default, forwarded).
  static func completed<Element>(_ sink: CountingSink<Element, Self>)
}

extension CountingRule {
  @inline(__always) static func next<Element>(_ sink: CountingSink<Element, Self>, owned element: Element) {
    _withUnprotectedUnsafePointer(to: element) { next(sink, at: $0) }
  }

  @inline(__always) static func completed<Element>(_ sink: CountingSink<Element, Self>) {
    sink.forwardTerminal(.completed)
  }
}

// rx:value-leaf name=ValueSkipProducer args=Value,SkipRule copy=makeSink super=run
// rx:value-leaf name=ValueTakeProducer args=Value,TakeRule copy=makeSink super=run
// rx:value-leaf name=ValueElementAtProducer args=Value,ElementAtRule copy=makeSink super=run
// rx:value-leaf name=ValueSkipLastProducer args=Value,SkipLastRule copy=makeSink super=run
// rx:value-leaf name=ValueTakeLastProducer args=Value,TakeLastRule copy=makeSink super=run
/// The parameter is the count the sink starts from (`remaining`).
class CountingProducer<Element, Rule: CountingRule>: UnaryProducer<Element, Element, Int> {
  override func makeSink(_ observer: Observer<Element>, cancel: any Cancelable) -> Sink<Element, Element> {
    CountingSink<Element, Rule>(remaining: parameter, observer: observer, cancel: cancel)
  }
}

// rx:value-leaf name=ValueSkipSink args=Value,SkipRule on next=next
// rx:value-leaf name=ValueTakeSink args=Value,TakeRule on next=next
// rx:value-leaf name=ValueElementAtSink args=Value,ElementAtRule on next=next
// rx:value-leaf name=ValueSkipLastSink args=Value,SkipLastRule on next=next
// rx:value-leaf name=ValueTakeLastSink args=Value,TakeLastRule on next=copy
class CountingSink<Element, Rule: CountingRule>: Sink<Element, Element> {
  var remaining: Int
  /// skipLast and takeLast: the newest elements, at most `remaining`: the ones that may still
  /// turn out to be last.
  var held = RingBuffer<Element>()

  init(remaining: Int, observer: Observer<Element>, cancel: any Cancelable) {
    self.remaining = remaining
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) {
    switch event {
    case .next(let element): Rule.next(self, owned: element)
    case .error:
      held.removeAll()
      forwardTerminal(event)
    case .completed: Rule.completed(self)
    }
  }

  /// `on(.next)` of the element at `element`, forwarded where it is (no event built).
  @inline(__always) final func next(at element: UnsafePointer<Element>) { Rule.next(self, at: element) }
}
