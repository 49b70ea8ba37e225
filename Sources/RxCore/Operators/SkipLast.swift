extension Observable {
  // rx:value-overload
  /// All but the last `count` elements: each element is forwarded once `count` newer ones
  /// have arrived, so the last `count` are never emitted. `skipLast(0)` mirrors the source.
  public func skipLast(_ count: Int) -> Observable<Element> {
    SkipLastProducer(source: self, count: Swift.max(count, 0))
  }
}

// rx:value-leaf copy=run
class SkipLastProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  let count: Int

  init(source: Observable<Element>, count: Int) {
    self.source = source
    self.count = count
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = SkipLastSink(count: count, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

// rx:value-leaf on next=next
class SkipLastSink<Element>: Sink<Element, Element> {
  let count: Int
  /// The newest elements, at most `count`: the ones that may still turn out to be last.
  var held = RingBuffer<Element>()

  init(count: Int, observer: Observer<Element>, cancel: any Cancelable) {
    self.count = count
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) {
    switch event {
    case .next(let element): _withUnprotectedUnsafePointer(to: element) { next(at: $0) }
    case .error, .completed:
      held.removeAll()
      forwardTerminal(event)
    }
  }

  /// `on(.next)` of the element at `element`: forwarded where it is when nothing is held back,
  /// else kept, and the oldest kept one handed over.
  @inline(__always) final func next(at element: UnsafePointer<Element>) {
    if count == 0 { return forwardNext(at: element) }
    held.append(element.pointee)
    if held.count > count, let oldest = held.popFirst() { forwardNext(owned: oldest) }
  }
}
