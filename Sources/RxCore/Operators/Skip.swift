extension Observable {
  // rx:value-overload
  /// Drops the first `count` elements.
  public func skip(_ count: Int) -> Observable<Element> {
    SkipProducer(source: self, count: count)
  }
}

// rx:value-leaf copy=run
class SkipProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  let count: Int

  init(source: Observable<Element>, count: Int) {
    self.source = source
    self.count = count
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = SkipSink(remaining: count, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

// rx:value-leaf on next=next
class SkipSink<Element>: Sink<Element, Element> {
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
    if remaining > 0 {
      remaining -= 1
    } else {
      forwardNext(at: element)
    }
  }
}
