extension Observable {
  /// Emits `elements` first, then the source's events.
  public func startWith(_ elements: [Element]) -> Observable<Element> {
    StartWithProducer(source: self, elements: ContiguousArray(elements))
  }

  public func startWith(_ elements: Element...) -> Observable<Element> { startWith(elements) }
}

final class StartWithProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  let elements: ContiguousArray<Element>

  init(source: Observable<Element>, elements: ContiguousArray<Element>) {
    self.source = source
    self.elements = elements
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = StartWithSink<Element>(observer: observer, cancel: cancel)
    for element in elements {
      if sink.wantsNoMoreEvents { return (sink, NopDisposable.shared) }
      sink.forwardOn(.next(element))
    }
    if sink.wantsNoMoreEvents { return (sink, NopDisposable.shared) }
    return (sink, source.subscribe(sink))
  }
}

final class StartWithSink<Element>: Sink<Element, Element> {
  override func on(_ event: Event<Element>) {
    if event.isStopEvent { forwardTerminal(event) } else { forwardOn(event) }
  }
}
