extension Observable {
  /// Transforms each element; a thrown error fails the stream.
  public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
    MapProducer(source: self, transform: transform)
  }
}

final class MapProducer<Source, Result>: Producer<Result> {
  let source: Observable<Source>
  let transform: (Source) throws -> Result

  init(source: Observable<Source>, transform: @escaping (Source) throws -> Result) {
    self.source = source
    self.transform = transform
  }

  override func run(_ observer: Observer<Result>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = MapSink(transform: transform, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
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
