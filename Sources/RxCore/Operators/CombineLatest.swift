extension Observable {
  /// Combines the latest element of every source each time one of them emits, once all
  /// have emitted. Completes when all have completed (or when the only sources left
  /// running can no longer produce a combination); the first error ends everything.
  /// With no sources: emits `resultSelector([])` and completes, as RxSwift does.
  public static func combineLatest<Source>(
    _ sources: [Observable<Source>], resultSelector: @escaping ([Source]) throws -> Element
  ) -> Observable<Element> {
    CombineLatestProducer(sources: sources, selector: .array(resultSelector))
  }
}

extension Observable where Element == Value {
  public static func combineLatest(
    _ sources: [Observable<Value>], resultSelector: @escaping ([Value]) throws -> Value
  ) -> Observable<Value> {
    ValueCombineLatestProducer(sources: sources, selector: .array(resultSelector))
  }

  /// `combineLatest` whose selector reads the latest elements in place (valid for the call):
  /// no array per combination.
  public static func combineLatest(
    _ sources: [Observable<Value>], bufferSelector: @escaping (UnsafeBufferPointer<Value>) throws -> Value
  ) -> Observable<Value> {
    ValueCombineLatestProducer(sources: sources, selector: .buffer(bufferSelector))
  }

  /// `combineLatest` with a selector in any of its forms (`.function`: an object shared by every
  /// subscription, called as a method, with no closure context retained per combination).
  @_spi(RxC) public static func combineLatest(_ sources: [Observable<Value>], selector: CombiningSelector<Value, Value>) -> Observable<Value> {
    ValueCombineLatestProducer(sources: sources, selector: selector)
  }
}

/// The sink and its Value leaves are `CombiningSink`'s (Combining.swift).
typealias CombineLatestProducer<Source, Result> = CombiningProducer<Source, Result, LatestElements<Source>>
