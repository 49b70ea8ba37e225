extension Observable {
  // rx:value-overload
  /// The element at `index`, then completed; fails with `RxError.argumentOutOfRange` if the
  /// source completes first.
  public func element(at index: Int) -> Observable<Element> {
    ElementAtProducer(source: self, index: index)
  }
}

// rx:value-leaf copy=run
class ElementAtProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  let index: Int

  init(source: Observable<Element>, index: Int) {
    self.source = source
    self.index = index
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ElementAtSink(index: index, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

// rx:value-leaf on next=next
class ElementAtSink<Element>: Sink<Element, Element> {
  var remaining: Int

  init(index: Int, observer: Observer<Element>, cancel: any Cancelable) {
    self.remaining = index
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) {
    switch event {
    case .next(let element): _withUnprotectedUnsafePointer(to: element) { next(at: $0) }
    case .error: forwardTerminal(event)
    case .completed: forwardTerminal(.error(RxError.argumentOutOfRange))
    }
  }

  /// `on(.next)` of the element at `element`, forwarded where it is (no event built).
  @inline(__always) final func next(at element: UnsafePointer<Element>) {
    if remaining == 0 {
      forwardNext(at: element)
      forwardTerminal(.completed)
    }
    remaining -= 1
  }
}
