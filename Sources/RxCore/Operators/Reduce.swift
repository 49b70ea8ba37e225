extension Observable {
  // rx:value-overload map=ReduceProducer:ValueReduceProducer
  /// Accumulates every element from `seed`; emits the result once the source completes.
  public func reduce<State>(_ seed: State, accumulator: @escaping (State, Element) throws -> State) -> Observable<State> {
    ReduceProducer(source: self, seed: seed, accumulator: accumulator)
  }
}

/// The producer, its sink and their Value leaves are `AccumulatingSink`'s (AccumulatingSink.swift).
typealias ReduceProducer<Source, Accumulate> = AccumulatingProducer<Source, Accumulate, AtCompletion>
typealias ValueReduceProducer = ValueAccumulatingProducer<AtCompletion>
