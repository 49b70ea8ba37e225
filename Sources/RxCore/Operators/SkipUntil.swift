extension Observable {
  // rx:value-overload map=SkipUntilProducer:ValueSkipUntilProducer
  /// Drops elements until `other` emits an element, then forwards the rest. An error of
  /// `other` fails the stream. If the source completes before `other` emitted, the
  /// subscription ends with no event (as in RxSwift); observers see it as dropped.
  public func skip<Other>(until other: Observable<Other>) -> Observable<Element> {
    SkipUntilProducer(source: self, other)
  }
}

/// The producer and its Value leaves are `UntilProducer`'s (Until.swift).
typealias SkipUntilProducer<Element, Other> = UntilProducer<Element, Other, SkipGate>
