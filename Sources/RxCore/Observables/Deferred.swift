/// Calls `factory` at each subscription and subscribes to what it returns; a thrown error
/// fails that subscription.
@_spi(RxC) public final class Deferred<Element>: Producer<Element> {
  let factory: () throws -> Observable<Element>
  public init(_ factory: @escaping () throws -> Observable<Element>) { self.factory = factory }

  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = DeferredSink(observer: observer, cancel: cancel)
    do {
      let source = try factory()
      let subscription = source.subscribe(sink)
      return (consume sink, subscription)
    } catch {
      sink.forwardTerminal(.error(error))
      return (sink, NopDisposable.shared)
    }
  }
}

final class DeferredSink<Element>: Sink<Element, Element> {
  override func on(_ event: Event<Element>) {
    if event.isStopEvent { forwardTerminal(event) } else { forwardOn(event) }
  }
}

extension Observable {
  public static func deferred(_ factory: @escaping () throws -> Observable<Element>) -> Observable<Element> {
    Deferred(factory)
  }
}
