extension Observable {
  // rx:value-overload
  /// The last `count` elements, emitted when the source completes.
  public func takeLast(_ count: Int) -> Observable<Element> {
    TakeLastProducer(source: self, count: Swift.max(count, 0))
  }
}

// rx:value-leaf copy=run
class TakeLastProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  let count: Int

  init(source: Observable<Element>, count: Int) {
    self.source = source
    self.count = count
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = TakeLastSink(count: count, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

// rx:value-leaf on next=copy
class TakeLastSink<Element>: Sink<Element, Element> {
  let count: Int
  var elements = RingBuffer<Element>()

  init(count: Int, observer: Observer<Element>, cancel: any Cancelable) {
    self.count = count
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) {
    switch event {
    case .next(let element):
      if count == 0 { return }
      elements.append(element, keepingLast: count)
    case .error(let error):
      elements.removeAll()
      forwardTerminal(.error(error))
    case .completed:
      while let element = elements.popFirst() {
        if wantsNoMoreEvents { break }
        forwardNext(owned: element)
      }
      forwardTerminal(.completed)
    }
  }
}
