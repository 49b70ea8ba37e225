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

typealias ScanProducer<Source, Accumulate> = AccumulatingProducer<Source, Accumulate, EachStep>
/// The sink is `AccumulatingSink`'s (AccumulatingSink.swift).
@_spi(RxC) public typealias ScanSink<Source, Accumulate> = AccumulatingSink<Source, Accumulate, EachStep>

/// The Value leaves are `ValueAccumulatingSink`'s (AccumulatingSink.swift).
typealias ValueScanProducer = ValueAccumulatingProducer<EachStep>
