extension Observable {
  /// Transforms each element and forwards the results that are not nil; a thrown error
  /// fails the stream.
  public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
    CompactMapProducer(source: self, transform: transform)
  }
}

extension Observable where Element == Value {
  public func compactMap(_ transform: @escaping (Value) throws -> Value?) -> Observable<Value> {
    ValueCompactMapProducer(source: self, transform: transform)
  }
}

class CompactMapProducer<Source, Result>: Producer<Result> {
  let source: Observable<Source>
  let transform: (Source) throws -> Result?

  init(source: Observable<Source>, transform: @escaping (Source) throws -> Result?) {
    self.source = source
    self.transform = transform
  }

  override func run(_ observer: Observer<Result>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = CompactMapSink(transform: transform, observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

class CompactMapSink<Source, Result>: Sink<Source, Result> {
  let transform: (Source) throws -> Result?

  init(transform: @escaping (Source) throws -> Result?, observer: Observer<Result>, cancel: any Cancelable) {
    self.transform = transform
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Source>) {
    // No user call once disposed: a racing upstream event must not reach the C callback.
    if isDisposed { return }
    switch event {
    case .next(let element):
      let result: Result?
      do { result = try transform(element) } catch {
        forwardTerminal(.error(error))
        return
      }
      if let result { forwardOn(.next(result)) }
    case .error(let error): forwardTerminal(.error(error))
    case .completed: forwardTerminal(.completed)
    }
  }
}

// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueCompactMapProducer: CompactMapProducer<Value, Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueCompactMapSink(transform: transform, observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

final class ValueCompactMapSink: CompactMapSink<Value, Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
}
