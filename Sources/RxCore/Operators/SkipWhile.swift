extension Observable {
  /// Drops elements while `predicate` holds, then forwards everything from the first that
  /// fails it.
  public func skip(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
    SkipWhileProducer(source: self, predicate: predicate)
  }
}

final class SkipWhileProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  let predicate: (Element) throws -> Bool

  init(source: Observable<Element>, predicate: @escaping (Element) throws -> Bool) {
    self.source = source
    self.predicate = predicate
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = SkipWhileSink(predicate: predicate, observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

final class SkipWhileSink<Element>: Sink<Element, Element> {
  let predicate: (Element) throws -> Bool
  var skipping = true

  init(predicate: @escaping (Element) throws -> Bool, observer: Observer<Element>, cancel: any Cancelable) {
    self.predicate = predicate
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) {
    if isDisposed { return }
    switch event {
    case .next(let element):
      if skipping {
        do { skipping = try predicate(element) } catch {
          forwardTerminal(.error(error))
          return
        }
        if skipping { return }
      }
      forwardOn(event)
    case .error, .completed: forwardTerminal(event)
    }
  }
}
