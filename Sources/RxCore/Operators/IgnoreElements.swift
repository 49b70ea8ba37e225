extension Observable {
  // rx:value-overload
  /// Only the terminal event.
  public func ignoreElements() -> Observable<Element> { IgnoreElementsProducer(source: self) }
}

// rx:value-leaf copy=run
class IgnoreElementsProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  init(source: Observable<Element>) { self.source = source }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = IgnoreElementsSink<Element>(observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

// rx:value-leaf on next={}
class IgnoreElementsSink<Element>: Sink<Element, Element> {
  override func on(_ event: Event<Element>) {
    if event.isStopEvent { forwardTerminal(event) }
  }
}
