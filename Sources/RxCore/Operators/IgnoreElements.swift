extension Observable {
  // rx:value-overload
  /// Only the terminal event.
  public func ignoreElements() -> Observable<Element> { IgnoreElementsProducer(source: self) }
}

// rx:value-leaf copy=makeSink super=run
class IgnoreElementsProducer<Element>: UnaryProducer<Element, Element, Void> {
  override func makeSink(_ observer: Observer<Element>, cancel: any Cancelable) -> Sink<Element, Element> {
    IgnoreElementsSink<Element>(observer: observer, cancel: cancel)
  }
}

// rx:value-leaf on next={}
class IgnoreElementsSink<Element>: Sink<Element, Element> {
  override func on(_ event: Event<Element>) {
    if event.isStopEvent { forwardTerminal(event) }
  }
}
