extension Observable {
  // rx:value-overload map=TakeLastProducer:ValueTakeLastProducer
  /// The last `count` elements, emitted when the source completes.
  public func takeLast(_ count: Int) -> Observable<Element> {
    TakeLastProducer(source: self, count: Swift.max(count, 0))
  }
}

/// The producer, its sink and their Value leaves are `Trailing`'s (Trailing.swift).
typealias TakeLastProducer<Element> = TrailingProducer<Element, TakeLastRule>

/// Keeps the newest `count` elements and forwards them when the source completes.
enum TakeLastRule: TrailingRule {
  static var forwardsEvicted: Bool { false }
}
