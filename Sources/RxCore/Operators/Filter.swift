extension Observable {
  /// Forwards the elements that satisfy `predicate`; a thrown error fails the stream.
  public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
    PredicateProducer<Element, FilterRule>(source: self, predicate: predicate)
  }
}

/// Forwards the elements that pass the predicate. The producer and sink are
/// `PredicateSink`'s (PredicateSink.swift); `Observable<Value>` filters in a fused pipeline
/// (Fusion/ValuePipeline.swift).
enum FilterRule: PredicateRule {
  @inline(__always) static func next<Element>(_ sink: PredicateSink<Element, Self>, at element: UnsafePointer<Element>) {
    let pass: Bool
    do { pass = try sink.test(at: element) } catch {
      sink.forwardTerminal(.error(error))
      return
    }
    if pass { sink.forwardNext(at: element) }
  }
}
