extension Observable {
  // rx:value-overload
  /// Emits `elements` first, then the source's events.
  public func startWith(_ elements: [Element]) -> Observable<Element> {
    StartWithProducer(source: self, elements: ContiguousArray(elements))
  }

  // rx:value-overload
  public func startWith(_ elements: Element...) -> Observable<Element> { startWith(elements) }
}

// rx:value-leaf copy=run
class StartWithProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  let elements: ContiguousArray<Element>

  init(source: Observable<Element>, elements: ContiguousArray<Element>) {
    self.source = source
    self.elements = elements
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    start(StartWithSink<Element>(observer: observer, cancel: cancel))
  }

  /// Final, so that a leaf's call gets it specialized.
  final func start(_ sink: StartWithSink<Element>) -> (sink: any Disposable, subscription: any Disposable) {
    for element in elements {
      if sink.wantsNoMoreEvents { return (sink, NopDisposable.shared) }
      sink.forwardNext(element)
    }
    if sink.wantsNoMoreEvents { return (sink, NopDisposable.shared) }
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

// rx:value-leaf on next=forward
class StartWithSink<Element>: Sink<Element, Element> {
  /// `.next` goes on unchanged: the `Value` leaf forwards it by pointer (`forwardNext(at:)`)
  /// without this body, so keep the two in step.
  override func on(_ event: Event<Element>) {
    if event.isStopEvent { forwardTerminal(event) } else { forwardOn(event) }
  }
}
