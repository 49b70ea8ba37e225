/// skip, take and element(at:): one producer and one sink that count elements down; the
/// `Rule` (a type parameter, folded away in each sink's code) says what an element does.
protocol CountingRule {
  /// The element at `element`, with `sink.remaining` elements left to count.
  static func next<Element>(_ sink: CountingSink<Element, Self>, at element: UnsafePointer<Element>)
  /// element(at:): a source that completes before the element fails the stream.
  static var failsShort: Bool { get }
}

// rx:value-leaf name=ValueSkipProducer args=Value,SkipRule copy=run
// rx:value-leaf name=ValueTakeProducer args=Value,TakeRule copy=run
// rx:value-leaf name=ValueElementAtProducer args=Value,ElementAtRule copy=run
class CountingProducer<Element, Rule: CountingRule>: Producer<Element> {
  let source: Observable<Element>
  let count: Int

  init(source: Observable<Element>, count: Int) {
    self.source = source
    self.count = count
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = CountingSink<Element, Rule>(remaining: count, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

// rx:value-leaf name=ValueSkipSink args=Value,SkipRule on next=next
// rx:value-leaf name=ValueTakeSink args=Value,TakeRule on next=next
// rx:value-leaf name=ValueElementAtSink args=Value,ElementAtRule on next=next
class CountingSink<Element, Rule: CountingRule>: Sink<Element, Element> {
  var remaining: Int

  init(remaining: Int, observer: Observer<Element>, cancel: any Cancelable) {
    self.remaining = remaining
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) {
    switch event {
    case .next(let element): _withUnprotectedUnsafePointer(to: element) { next(at: $0) }
    case .error: forwardTerminal(event)
    case .completed: forwardTerminal(Rule.failsShort ? .error(RxError.argumentOutOfRange) : event)
    }
  }

  /// `on(.next)` of the element at `element`, forwarded where it is (no event built).
  @inline(__always) final func next(at element: UnsafePointer<Element>) { Rule.next(self, at: element) }
}
