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

final class CatchProducer<Element>: Producer<Element> {
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
final class CatchSink<Element>: Sink<Element, Element> {
  let handler: (any Error) throws -> Observable<Element>
  let subscription = SerialDisposable()

  init(handler: @escaping (any Error) throws -> Observable<Element>, observer: Observer<Element>, cancel: any Cancelable) {
    self.handler = handler
    super.init(observer: observer, cancel: cancel)
  }

  func run(_ source: Observable<Element>) -> any Disposable {
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
      second.trySet(next.subscribe(CatchProxy(parent: self)))
    }
  }
}

final class CatchProxy<Element>: Observer<Element> {
  let parent: CatchSink<Element>
  init(parent: CatchSink<Element>) { self.parent = parent }

  override func on(_ event: Event<Element>) {
    if event.isStopEvent { parent.forwardTerminal(event) } else { parent.forwardOn(event) }
  }

  override func dropped() { parent.dropped() }

  override var wantsNoMoreEvents: Bool { parent.wantsNoMoreEvents }
}
