/// Whether the element that ends take(while:) / take(until:) is forwarded before the
/// completion.
public enum TakeBehavior: Sendable {
  case inclusive
  case exclusive
}

extension Observable {
  // rx:value-overload map=TakeWhileProducer:ValueTakeWhileProducer
  /// Forwards elements while `predicate` holds; completes at the first that fails it,
  /// forwarding that one first when `behavior` is `.inclusive`.
  public func take(
    while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive
  ) -> Observable<Element> {
    TakeWhileProducer(source: self, predicate: predicate, stopsOn: false, behavior: behavior)
  }

  // rx:value-overload map=TakeWhileProducer:ValueTakeWhileProducer
  /// Forwards elements until `predicate` holds for one; completes there, forwarding that
  /// one first when `behavior` is `.inclusive`.
  public func take(
    until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive
  ) -> Observable<Element> {
    TakeWhileProducer(source: self, predicate: predicate, stopsOn: true, behavior: behavior)
  }
}

/// The producer, the sink and their Value leaves are `PredicateSink`'s (PredicateSink.swift).
typealias TakeWhileProducer<Element> = PredicateProducer<Element, TakeWhileRule>
typealias ValueTakeWhileProducer = ValuePredicateProducer<TakeWhileRule>

/// take(while:) and take(until:) in one: the stream ends at the first element for which
/// the predicate answers `stopsOn` (forwarded first if `inclusive`).
@_spi(RxC) public enum TakeWhileRule: PredicateRule {
  @inlinable @inline(__always)
  public static func next<Element>(_ sink: PredicateSink<Element, Self>, at element: UnsafePointer<Element>) {
    let stop: Bool
    do { stop = try sink.test(at: element) == sink.stopsOn } catch {
      sink.forwardTerminal(.error(error))
      return
    }
    if !stop {
      sink.forwardNext(at: element)
      return
    }
    if sink.inclusive { sink.forwardNext(at: element) }
    sink.forwardTerminal(.completed)
  }
}

extension TakeWhileRule: ValuePredicateRule {
  static var valueSink: ValuePredicateSink<Self>.Type { ValueTakeWhileSink.self }
}
