extension Observable {
  // rx:value-overload map=ScanProducer:ValueScanProducer
  /// Emits each intermediate accumulation, starting from `seed`.
  public func scan<State>(_ seed: State, accumulator: @escaping (State, Element) throws -> State) -> Observable<State> {
    ScanProducer(source: self, seed: seed, accumulator: accumulator)
  }
}

/// The producer, its sink and their Value leaves are `AccumulatingSink`'s (AccumulatingSink.swift).
typealias ScanProducer<Source, Accumulate> = AccumulatingProducer<Source, Accumulate, EachStep>
typealias ValueScanProducer = ValueAccumulatingProducer<EachStep>
