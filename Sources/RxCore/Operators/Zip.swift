extension Observable {
  // rx:value-overload
  /// Combines the n-th elements of all sources. Completes when all sources have completed,
  /// or when an element arrives while every other source is done (RxSwift's rule); the
  /// first error ends everything. With no sources: completes at once.
  public static func zip<Source>(
    _ sources: [Observable<Source>], resultSelector: @escaping ([Source]) throws -> Element
  ) -> Observable<Element> {
    CombiningProducer<Source, Element, QueuedElements<Source>>(sources: sources, selector: .array(resultSelector))
  }
}

/// The producer, the sink, their Value leaves and the in-place selector forms: Combining.swift.
