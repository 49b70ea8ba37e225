extension Observable {
  /// The inverse of `materialize`: turns event elements back into events.
  public func dematerialize<Inner>() -> Observable<Inner> where Element == Event<Inner> {
    DematerializeProducer(source: self)
  }
}

final class DematerializeProducer<Inner>: Producer<Inner> {
  let source: Observable<Event<Inner>>
  init(source: Observable<Event<Inner>>) { self.source = source }

  override func run(_ observer: Observer<Inner>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = DematerializeSink<Inner>(observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

final class DematerializeSink<Inner>: Sink<Event<Inner>, Inner> {
  override func on(_ event: Event<Event<Inner>>) {
    switch event {
    case .next(let inner):
      if inner.isStopEvent { forwardTerminal(inner) } else { forwardOn(inner) }
    case .error(let error): forwardTerminal(.error(error))
    case .completed: forwardTerminal(.completed)
    }
  }
}
