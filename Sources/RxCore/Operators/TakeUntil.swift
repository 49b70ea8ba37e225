extension Observable {
  // rx:value-overload map=TakeUntilProducer:ValueTakeUntilProducer
  /// Forwards elements until `other` emits an element (then completes). An error of
  /// `other` fails the stream; its completion changes nothing.
  public func take<Other>(until other: Observable<Other>) -> Observable<Element> {
    TakeUntilProducer(source: self, other)
  }
}

/// The producer and its Value leaves are `UntilProducer`'s (Until.swift).
typealias TakeUntilProducer<Element, Other> = UntilProducer<Element, Other, TakeGate>
