extension Observable {
  /// The first element, then completed; fails with `RxError.noElements` on an empty source.
  public func first() -> Observable<Element> { FirstProducer(source: self) }
}

final class FirstProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  init(source: Observable<Element>) { self.source = source }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = FirstSink<Element>(observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

final class FirstSink<Element>: Sink<Element, Element> {
  override func on(_ event: Event<Element>) {
    switch event {
    case .next:
      forwardOn(event)
      forwardTerminal(.completed)
    case .error: forwardTerminal(event)
    case .completed: forwardTerminal(.error(RxError.noElements))
    }
  }
}
