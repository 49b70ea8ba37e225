extension Observable {
  // rx:value-overload
  /// The first `count` elements, then completed. `take(0)` completes without subscribing.
  public func take(_ count: Int) -> Observable<Element> {
    if count <= 0 { return Empty() }
    return TakeProducer(source: self, count: count)
  }
}

// rx:value-leaf copy=run
class TakeProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  let count: Int

  init(source: Observable<Element>, count: Int) {
    self.source = source
    self.count = count
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = TakeSink(remaining: count, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

// rx:value-leaf on next=next
class TakeSink<Element>: Sink<Element, Element> {
  var remaining: Int

  init(remaining: Int, observer: Observer<Element>, cancel: any Cancelable) {
    self.remaining = remaining
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) {
    switch event {
    case .next(let element): _withUnprotectedUnsafePointer(to: element) { next(at: $0) }
    case .error, .completed: forwardTerminal(event)
    }
  }

  /// `on(.next)` of the element at `element`, forwarded where it is (no event built).
  @inline(__always) final func next(at element: UnsafePointer<Element>) {
    if remaining <= 0 { return }
    remaining -= 1
    forwardNext(at: element)
    if remaining == 0 { forwardTerminal(.completed) }
  }
}
