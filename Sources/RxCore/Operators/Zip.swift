extension Observable {
  /// Combines the n-th elements of all sources. Completes when all sources have completed,
  /// or when an element arrives while every other source is done (RxSwift's rule); the
  /// first error ends everything. With no sources: completes at once.
  public static func zip<Source>(
    _ sources: [Observable<Source>], resultSelector: @escaping ([Source]) throws -> Element
  ) -> Observable<Element> {
    ZipProducer(sources: sources, selector: .array(resultSelector))
  }
}

extension Observable where Element == Value {
  public static func zip(
    _ sources: [Observable<Value>], resultSelector: @escaping ([Value]) throws -> Value
  ) -> Observable<Value> {
    ValueZipProducer(sources: sources, selector: .array(resultSelector))
  }

  /// `zip` whose selector reads each combination in place (valid for the call): no array
  /// per combination.
  public static func zip(
    _ sources: [Observable<Value>], bufferSelector: @escaping (UnsafeBufferPointer<Value>) throws -> Value
  ) -> Observable<Value> {
    ValueZipProducer(sources: sources, selector: .buffer(bufferSelector))
  }

  /// `zip` with a selector in any of its forms (`.function`: an object shared by every
  /// subscription, called as a method, with no closure context retained per combination).
  @_spi(RxC) public static func zip(_ sources: [Observable<Value>], selector: CombiningSelector<Value, Value>) -> Observable<Value> {
    ValueZipProducer(sources: sources, selector: selector)
  }
}

/// The sink and its Value leaves are `CombiningSink`'s (Combining.swift).
typealias ZipProducer<Source, Result> = CombiningProducer<Source, Result, QueuedElements<Source>>
