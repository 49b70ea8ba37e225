extension Observable {
  /// Emits each intermediate accumulation, starting from `seed`.
  public func scan<Accumulate>(
    _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate
  ) -> Observable<Accumulate> {
    ScanProducer(source: self, seed: seed, accumulator: accumulator)
  }
}

extension Observable where Element == Value {
  public func scan(_ seed: Value, accumulator: @escaping (Value, Value) throws -> Value) -> Observable<Value> {
    ValueScanProducer(source: self, seed: seed, accumulator: accumulator)
  }
}

class ScanProducer<Source, Accumulate>: Producer<Accumulate> {
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
    let sink = ScanSink(parent: self, observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

class ScanSink<Source, Accumulate>: Sink<Source, Accumulate> {
  let parent: ScanProducer<Source, Accumulate>
  var accumulate: Accumulate

  init(parent: ScanProducer<Source, Accumulate>, observer: Observer<Accumulate>, cancel: any Cancelable) {
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
        return
      }
      forwardOn(.next(accumulate))
    case .error(let error): forwardTerminal(.error(error))
    case .completed: forwardTerminal(.completed)
    }
  }
}

// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueScanProducer: ScanProducer<Value, Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueScanSink(parent: self, observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

final class ValueScanSink: ScanSink<Value, Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
}
