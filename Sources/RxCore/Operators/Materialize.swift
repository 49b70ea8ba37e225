extension Observable {
  /// Each event as an element; after the source's terminal event (emitted as an element)
  /// the stream completes.
  public func materialize() -> Observable<Event<Element>> { MaterializeProducer(source: self) }
}

final class MaterializeProducer<Element>: Producer<Event<Element>> {
  let source: Observable<Element>
  init(source: Observable<Element>) { self.source = source }

  override func run(_ observer: Observer<Event<Element>>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = MaterializeSink<Element>(observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

final class MaterializeSink<Element>: Sink<Element, Event<Element>> {
  override func on(_ event: Event<Element>) {
    forwardOn(.next(event))
    if event.isStopEvent { forwardTerminal(.completed) }
  }
}
