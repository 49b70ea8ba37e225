extension Observable {
  // rx:value-overload
  /// The last element, once the source completes; fails with `RxError.noElements` on an
  /// empty source.
  public func last() -> Observable<Element> { LastProducer(source: self) }
}

// rx:value-leaf copy=makeSink super=run
class LastProducer<Element>: UnaryProducer<Element, Element, Void> {
  override func makeSink(_ observer: Observer<Element>, cancel: any Cancelable) -> Sink<Element, Element> {
    LastSink<Element>(observer: observer, cancel: cancel)
  }
}

// rx:value-leaf on next=copy
class LastSink<Element>: Sink<Element, Element> {
  var last: Element?

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
