extension Observable {
  /// Forwards elements while `predicate` holds; completes at the first that fails it.
  public func take(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
    TakeWhileProducer(source: self, predicate: predicate)
  }
}

extension Observable where Element == Value {
  public func take(while predicate: @escaping (Value) throws -> Bool) -> Observable<Value> {
    ValueTakeWhileProducer(source: self, predicate: predicate)
  }
}

class TakeWhileProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  let predicate: (Element) throws -> Bool

  init(source: Observable<Element>, predicate: @escaping (Element) throws -> Bool) {
    self.source = source
    self.predicate = predicate
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = TakeWhileSink(predicate: predicate, observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

class TakeWhileSink<Element>: Sink<Element, Element> {
  let predicate: (Element) throws -> Bool

  init(predicate: @escaping (Element) throws -> Bool, observer: Observer<Element>, cancel: any Cancelable) {
    self.predicate = predicate
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) {
    if isDisposed { return }
    switch event {
    case .next(let element):
      let keep: Bool
      do { keep = try predicate(element) } catch {
        forwardTerminal(.error(error))
        return
      }
      if keep { forwardOn(event) } else { forwardTerminal(.completed) }
    case .error, .completed: forwardTerminal(event)
    }
  }
}

// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueTakeWhileProducer: TakeWhileProducer<Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueTakeWhileSink(predicate: predicate, observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

final class ValueTakeWhileSink: TakeWhileSink<Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
}
