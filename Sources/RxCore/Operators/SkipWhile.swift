extension Observable {
  // rx:value-overload map=SkipWhileProducer:ValueSkipWhileProducer
  /// Drops elements while `predicate` holds, then forwards everything from the first that
  /// fails it.
  public func skip(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
    SkipWhileProducer(source: self, predicate: predicate)
  }
}

/// The producer, the sink and their Value leaves are `PredicateSink`'s (PredicateSink.swift).
typealias SkipWhileProducer<Element> = PredicateProducer<Element, SkipWhileRule>
typealias ValueSkipWhileProducer = ValuePredicateProducer<SkipWhileRule>

/// Drops elements while the predicate holds, then forwards everything.
@_spi(RxC) public enum SkipWhileRule: PredicateRule {
  @inlinable @inline(__always)
  public static func next<Element>(_ sink: PredicateSink<Element, Self>, at element: UnsafePointer<Element>) {
    if sink.skipping {
      do { sink.skipping = try sink.test(at: element) } catch {
        sink.forwardTerminal(.error(error))
        return
      }
      if sink.skipping { return }
    }
    sink.forwardNext(at: element)
  }
}

extension SkipWhileRule: ValuePredicateRule {
  static var valueSink: ValuePredicateSink<Self>.Type { ValueSkipWhileSink.self }
}
