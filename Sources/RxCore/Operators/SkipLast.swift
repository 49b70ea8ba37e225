extension Observable {
  // rx:value-overload map=SkipLastProducer:ValueSkipLastProducer
  /// All but the last `count` elements: each element is forwarded once `count` newer ones
  /// have arrived, so the last `count` are never emitted. `skipLast(0)` mirrors the source.
  public func skipLast(_ count: Int) -> Observable<Element> {
    SkipLastProducer(source: self, count: Swift.max(count, 0))
  }
}

/// The producer, its sink and their Value leaves are `Trailing`'s (Trailing.swift).
typealias SkipLastProducer<Element> = TrailingProducer<Element, SkipLastRule>

/// Forwards each element once `count` newer ones arrived; the last `count` are dropped.
enum SkipLastRule: TrailingRule {
  static var forwardsEvicted: Bool { true }
}
