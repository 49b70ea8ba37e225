extension Observable {
  /// On error, continues with the observable `handler` returns for it; a thrown error
  /// fails the stream with that error.
  public func `catch`(_ handler: @escaping (any Error) throws -> Observable<Element>) -> Observable<Element> {
    CatchProducer(source: self) { terminal, _ in try terminal.error.map(handler) }
  }

  // rx:value-overload map=CatchProducer:ValueCatchProducer
  /// On error, emits `element` and completes.
  public func catchAndReturn(_ element: Element) -> Observable<Element> {
    CatchProducer(source: self) { terminal, _ in terminal.error.map { _ in Just(element) } }
  }
}

extension Observable where Element == Value {
  public func `catch`(_ handler: @escaping (any Error) throws -> Observable<Value>) -> Observable<Value> {
    ValueCatchProducer(source: self) { terminal, _ in try terminal.error.map(handler) }
  }

}

/// The producer, its sink and their Value leaves are `ContinuingSink`'s (ContinuingSink.swift).
typealias CatchProducer<Element> = ContinuingProducer<Element, CatchRule>

/// Continues on error; elements go on unnoted.
enum CatchRule: ContinuationRule {
  static var tracksElements: Bool { false }
}
