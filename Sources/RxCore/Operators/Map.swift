extension Observable {
  /// Transforms each element; a thrown error fails the stream.
  public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
    MapProducer(source: self, transform: transform, makeSink: nil)
  }
  public func map<Result>(_ transform: @escaping (Element) throws -> Result,
                          makeSink: MapProducer<Element, Result>.MakeSink?) -> Observable<Result> {
    MapProducer(source: self, transform: transform, makeSink: makeSink)
  }
}

public final class MapProducer<Source, Result>: Producer<Result> {
  public typealias MakeSink = (@escaping (Source) throws -> Result, Observer<Result>, any Cancelable) -> MapSink<Source, Result>
  let source: Observable<Source>
  let transform: (Source) throws -> Result
  let makeSink: MakeSink?

  init(source: Observable<Source>, transform: @escaping (Source) throws -> Result, makeSink: MakeSink?) {
    self.source = source
    self.transform = transform
    self.makeSink = makeSink
  }

  public override func run(_ observer: Observer<Result>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = makeSink?(transform, observer, cancel) ?? MapSink(transform: transform, observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

open class MapSink<Source, Result>: Sink<Source, Result> {
  @usableFromInline let transform: (Source) throws -> Result

  public init(transform: @escaping (Source) throws -> Result, observer: Observer<Result>, cancel: any Cancelable) {
    self.transform = transform
    super.init(observer: observer, cancel: cancel)
  }

  @inlinable open override func on(_ event: Event<Source>) {
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
