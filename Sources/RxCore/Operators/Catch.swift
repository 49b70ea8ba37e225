extension Observable {
  /// On error, continues with the observable `handler` returns for it; a thrown error
  /// fails the stream with that error.
  public func `catch`(_ handler: @escaping (any Error) throws -> Observable<Element>) -> Observable<Element> {
    CatchProducer(source: self, handler: handler)
  }

  /// On error, emits `element` and completes.
  public func catchAndReturn(_ element: Element) -> Observable<Element> {
    CatchProducer(source: self, handler: { _ in Just(element) })
  }
}

extension Observable where Element == Value {
  public func `catch`(_ handler: @escaping (any Error) throws -> Observable<Value>) -> Observable<Value> {
    ValueCatchProducer(source: self, handler: handler)
  }

  public func catchAndReturn(_ element: Value) -> Observable<Value> {
    ValueCatchProducer(source: self, handler: { _ in Just(element) })
  }
}

class CatchProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  let handler: (any Error) throws -> Observable<Element>

  init(source: Observable<Element>, handler: @escaping (any Error) throws -> Observable<Element>) {
    self.source = source
    self.handler = handler
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = CatchSink(handler: handler, observer: observer, cancel: cancel)
    return (sink, sink.run(source))
  }
}

/// The source has terminated before the handler's observable is subscribed, so events of
/// the two never overlap and need no serialization.
class CatchSink<Element>: Sink<Element, Element> {
  let handler: (any Error) throws -> Observable<Element>
  let subscription = SerialDisposable()

  init(handler: @escaping (any Error) throws -> Observable<Element>, observer: Observer<Element>, cancel: any Cancelable) {
    self.handler = handler
    super.init(observer: observer, cancel: cancel)
  }

  /// Final, so that a leaf producer's call gets it specialized.
  final func run(_ source: Observable<Element>) -> any Disposable {
    let first = SingleAssignmentDisposable()
    subscription.set(first)
    first.trySet(source.subscribe(self))
    return subscription
  }

  override func on(_ event: Event<Element>) {
    if isDisposed { return }
    switch event {
    case .next: forwardOn(event)
    case .completed: forwardTerminal(event)
    case .error(let error):
      let next: Observable<Element>
      do { next = try handler(error) } catch {
        forwardTerminal(.error(error))
        return
      }
      let second = SingleAssignmentDisposable()
      subscription.set(second)  // releases the failed source's subscription
      second.trySet(next.subscribe(makeProxy()))
    }
  }

  /// The observer of the handler's observable (a leaf gives its own).
  func makeProxy() -> Observer<Element> { CatchProxy(parent: self) }
}

/// Forwards an inner observable's events straight downstream through `parent`: the
/// handler's observable here, timeout's fallback too.
class CatchProxy<Element>: Observer<Element> {
  let parent: Sink<Element, Element>
  init(parent: Sink<Element, Element>) { self.parent = parent }

  override func on(_ event: Event<Element>) {
    if event.isStopEvent { parent.forwardTerminal(event) } else { parent.forwardOn(event) }
  }

  override func dropped() { parent.dropped() }

  override var wantsNoMoreEvents: Bool { parent.wantsNoMoreEvents }
}

// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueCatchProducer: CatchProducer<Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueCatchSink(handler: handler, observer: observer, cancel: cancel)
    return (sink, sink.run(source))
  }
}

final class ValueCatchSink: CatchSink<Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
  override func makeProxy() -> Observer<Value> { ValueCatchProxy(parent: self) }
}

final class ValueCatchProxy: CatchProxy<Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
  override func dropped() { super.dropped() }
  override var wantsNoMoreEvents: Bool { super.wantsNoMoreEvents }
}
