extension Observable {
  /// The first `count` elements, then completed. `take(0)` completes without subscribing.
  public func take(_ count: Int) -> Observable<Element> {
    if count <= 0 { return Empty() }
    return TakeProducer(source: self, count: count)
  }
}

final class TakeProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  let count: Int

  init(source: Observable<Element>, count: Int) {
    self.source = source
    self.count = count
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = TakeSink(remaining: count, observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

final class TakeSink<Element>: Sink<Element, Element> {
  var remaining: Int

  init(remaining: Int, observer: Observer<Element>, cancel: any Cancelable) {
    self.remaining = remaining
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) {
    switch event {
    case .next:
      if remaining <= 0 { return }
      remaining -= 1
      forwardOn(event)
      if remaining == 0 { forwardTerminal(.completed) }
    case .error, .completed: forwardTerminal(event)
    }
  }
}
