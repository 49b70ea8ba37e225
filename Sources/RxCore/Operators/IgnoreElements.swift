extension Observable {
  /// Only the terminal event.
  public func ignoreElements() -> Observable<Element> { IgnoreElementsProducer(source: self) }
}

final class IgnoreElementsProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  init(source: Observable<Element>) { self.source = source }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = IgnoreElementsSink<Element>(observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

final class IgnoreElementsSink<Element>: Sink<Element, Element> {
  override func on(_ event: Event<Element>) {
    if event.isStopEvent { forwardTerminal(event) }
  }
}
