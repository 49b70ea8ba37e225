extension Observable {
  // rx:value-overload
  /// The last element, once the source completes; fails with `RxError.noElements` on an
  /// empty source.
  public func last() -> Observable<Element> { SinkProducer<Element, LastSink<Element>>(source: self) }
}

// rx:value-leaf on next=copy
class LastSink<Element>: Sink<Element, Element>, ObserverMadeSink {
  var last: Element?

  required override init(observer: Observer<Element>, cancel: any Cancelable) { super.init(observer: observer, cancel: cancel) }

  override func on(_ event: Event<Element>) {
    switch event {
    case .next(let element): last = element
    case .error:
      last = nil
      forwardTerminal(event)
    case .completed:
      guard let element = last.take() else {
        forwardTerminal(.error(RxError.noElements))
        return
      }
      forwardNext(owned: element)
      forwardTerminal(.completed)
    }
  }
}
