extension Observable {
  /// Transforms each element; a thrown error fails the stream.
  public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
    MapProducer(source: self, transform)
  }
}

final class MapProducer<Source, Result>: UnaryProducer<Source, Result, (Source) throws -> Result> {
  override func makeSink(_ observer: Observer<Result>, cancel: any Cancelable) -> Sink<Source, Result> {
    MapSink(transform: parameter, observer: observer, cancel: cancel)
  }
}

final class MapSink<Source, Result>: Sink<Source, Result> {
  let transform: (Source) throws -> Result

  init(transform: @escaping (Source) throws -> Result, observer: Observer<Result>, cancel: any Cancelable) {
    self.transform = transform
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Source>) {
    // No user call once disposed: a racing upstream event must not reach the C callback.
    if isDisposed { return }
    switch event {
    case .next(let element):
      let result: Result
      do { result = try transform(element) } catch {
        forwardTerminal(.error(error))
        return
      }
      forwardOn(.next(result))
    case .error(let error): forwardTerminal(.error(error))
    case .completed: forwardTerminal(.completed)
    }
  }
}
