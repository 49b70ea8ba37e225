extension Observable {
  /// Forwards the elements that satisfy `predicate`; a thrown error fails the stream.
  public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
    FilterProducer(source: self, predicate: predicate)
  }
}

final class FilterProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  let predicate: (Element) throws -> Bool

  init(source: Observable<Element>, predicate: @escaping (Element) throws -> Bool) {
    self.source = source
    self.predicate = predicate
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = FilterSink(predicate: predicate, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

final class FilterSink<Element>: Sink<Element, Element> {
  let predicate: (Element) throws -> Bool

  init(predicate: @escaping (Element) throws -> Bool, observer: Observer<Element>, cancel: any Cancelable) {
    self.predicate = predicate
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) {
    if isDisposed { return }
    switch event {
    case .next(let element):
      let pass: Bool
      do { pass = try predicate(element) } catch {
        forwardTerminal(.error(error))
        return
      }
      if pass { forwardOn(event) }
    case .error, .completed: forwardTerminal(event)
    }
  }
}
