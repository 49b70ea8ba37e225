extension Observable {
  // rx:value-overload
  /// Only the terminal event.
  public func ignoreElements() -> Observable<Element> { SinkProducer<Element, IgnoreElementsSink<Element>>(source: self) }
}

// rx:value-leaf on next={}
class IgnoreElementsSink<Element>: Sink<Element, Element>, ObserverMadeSink {
  required override init(observer: Observer<Element>, cancel: any Cancelable) { super.init(observer: observer, cancel: cancel) }

  override func on(_ event: Event<Element>) {
    if event.isStopEvent { forwardTerminal(event) }
  }
}
