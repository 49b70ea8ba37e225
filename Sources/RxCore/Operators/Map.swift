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
    return (sink, source.subscribe(sink))
  }
}

/// Open, with the event path in an inlinable `handle`, so that a caller that knows the types
/// can subclass it and pass its transform inline (then `transform` may be nil): a hook
/// method would be called through a reabstraction thunk.
open class MapSink<Source, Result>: Sink<Source, Result> {
  @usableFromInline let transform: ((Source) throws -> Result)?

  public init(transform: ((Source) throws -> Result)?, observer: Observer<Result>, cancel: any Cancelable) {
    self.transform = transform
    super.init(observer: observer, cancel: cancel)
  }

  open override func on(_ event: Event<Source>) { handle(event, transform!) }

  @inlinable @inline(__always)
  public final func handle(_ event: Event<Source>, _ apply: (Source) throws -> Result) {
    // No user call once disposed: a racing upstream event must not reach the C callback.
    if isDisposed { return }
    switch event {
    case .next(let element):
      let result: Result
      do { result = try apply(element) } catch {
        forwardTerminal(.error(error))
        return
      }
      forwardOn(.next(result))
    case .error(let error): forwardTerminal(.error(error))
    case .completed: forwardTerminal(.completed)
    }
  }
}
