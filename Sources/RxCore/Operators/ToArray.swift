extension Observable {
  /// Collects every element; emits them as one array when the source completes.
  public func toArray() -> Observable<[Element]> { ToArrayProducer(source: self) }
}

final class ToArrayProducer<Element>: Producer<[Element]> {
  let source: Observable<Element>
  init(source: Observable<Element>) { self.source = source }

  override func run(_ observer: Observer<[Element]>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ToArraySink<Element>(observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

final class ToArraySink<Element>: Sink<Element, [Element]> {
  var elements: [Element] = []

  override func on(_ event: Event<Element>) {
    switch event {
    case .next(let element): elements.append(element)
    case .error(let error): forwardTerminal(.error(error))
    case .completed:
      let all = elements
      elements = []
      forwardOn(.next(all))
      forwardTerminal(.completed)
    }
  }
}
