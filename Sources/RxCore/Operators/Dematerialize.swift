extension Observable {
  /// The inverse of `materialize`: turns event elements back into events.
  public func dematerialize<Inner>() -> Observable<Inner> where Element == Event<Inner> {
    DematerializeProducer(source: self, unpack: { $0 })
  }
}

extension Observable where Element == Value {
  /// The inverse of `materialize(pack:)`: `unpack` gives the event each element stands for;
  /// an error it throws fails the stream. One specialized operator instead of map then
  /// dematerialize.
  public func dematerialize(unpack: @escaping (Value) throws -> Event<Value>) -> Observable<Value> {
    ValueDematerializeProducer(source: self, unpack: unpack)
  }
}

class DematerializeProducer<Source, Inner>: Producer<Inner> {
  let source: Observable<Source>
  let unpack: (Source) throws -> Event<Inner>

  init(source: Observable<Source>, unpack: @escaping (Source) throws -> Event<Inner>) {
    self.source = source
    self.unpack = unpack
  }

  override func run(_ observer: Observer<Inner>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = DematerializeSink(unpack: unpack, observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

class DematerializeSink<Source, Inner>: Sink<Source, Inner> {
  let unpack: (Source) throws -> Event<Inner>

  init(unpack: @escaping (Source) throws -> Event<Inner>, observer: Observer<Inner>, cancel: any Cancelable) {
    self.unpack = unpack
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Source>) {
    switch event {
    case .next(let element):
      if isDisposed { return }  // no unpack after the end, as a map before it would not
      let inner: Event<Inner>
      do { inner = try unpack(element) } catch {
        forwardTerminal(.error(error))
        return
      }
      if inner.isStopEvent { forwardTerminal(inner) } else { forwardOn(inner) }
    case .error(let error): forwardTerminal(.error(error))
    case .completed: forwardTerminal(.completed)
    }
  }
}

// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueDematerializeProducer: DematerializeProducer<Value, Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueDematerializeSink(unpack: unpack, observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

final class ValueDematerializeSink: DematerializeSink<Value, Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { super.on(.next(Value.copy(at: element))) }
}
