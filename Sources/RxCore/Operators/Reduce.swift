extension Observable {
  /// Accumulates every element from `seed`; emits the result once the source completes.
  public func reduce<Accumulate>(
    _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate
  ) -> Observable<Accumulate> {
    ReduceProducer(source: self, seed: seed, accumulator: accumulator)
  }
}

extension Observable where Element == Value {
  public func reduce(_ seed: Value, accumulator: @escaping (Value, Value) throws -> Value) -> Observable<Value> {
    ValueReduceProducer(source: self, seed: seed, accumulator: accumulator)
  }
}

class ReduceProducer<Source, Accumulate>: Producer<Accumulate> {
  let source: Observable<Source>
  let seed: Accumulate
  let accumulator: (Accumulate, Source) throws -> Accumulate

  init(source: Observable<Source>, seed: Accumulate, accumulator: @escaping (Accumulate, Source) throws -> Accumulate) {
    self.source = source
    self.seed = seed
    self.accumulator = accumulator
  }

  override func run(_ observer: Observer<Accumulate>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ReduceSink(parent: self, observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

class ReduceSink<Source, Accumulate>: Sink<Source, Accumulate> {
  let parent: ReduceProducer<Source, Accumulate>
  var accumulate: Accumulate

  init(parent: ReduceProducer<Source, Accumulate>, observer: Observer<Accumulate>, cancel: any Cancelable) {
    self.parent = parent
    self.accumulate = parent.seed
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Source>) {
    if isDisposed { return }
    switch event {
    case .next(let element):
      do { accumulate = try parent.accumulator(accumulate, element) } catch {
        forwardTerminal(.error(error))
      }
    case .error(let error): forwardTerminal(.error(error))
    case .completed:
      forwardOn(.next(accumulate))
      forwardTerminal(.completed)
    }
  }
}

// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueReduceProducer: ReduceProducer<Value, Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueReduceSink(parent: self, observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

final class ValueReduceSink: ReduceSink<Value, Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
}
