extension Observable {
  // rx:value-overload
  /// Combines the latest element of every source each time one of them emits, once all
  /// have emitted. Completes when all have completed (or when the only sources left
  /// running can no longer produce a combination); the first error ends everything.
  /// With no sources: emits `resultSelector([])` and completes, as RxSwift does.
  public static func combineLatest<Source>(
    _ sources: [Observable<Source>], resultSelector: @escaping ([Source]) throws -> Element
  ) -> Observable<Element> {
    CombiningProducer<Source, Element, LatestElements<Source>>(sources: sources, selector: .array(resultSelector))
  }
}

/// The producer, the sink, their Value leaves and the in-place selector forms: Combining.swift.
