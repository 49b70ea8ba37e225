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

typealias ReduceProducer<Source, Accumulate> = AccumulatingProducer<Source, Accumulate, AtCompletion>
/// The sink is `AccumulatingSink`'s (AccumulatingSink.swift).
@_spi(RxC) public typealias ReduceSink<Source, Accumulate> = AccumulatingSink<Source, Accumulate, AtCompletion>

/// The Value leaves are `ValueAccumulatingSink`'s (AccumulatingSink.swift).
typealias ValueReduceProducer = ValueAccumulatingProducer<AtCompletion>
