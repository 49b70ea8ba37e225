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
    let subscription = sink.run(source)
    return (consume sink, subscription)
  }
}

class CatchSink<Element>: ContinuingSink<Element> {
  let handler: (any Error) throws -> Observable<Element>

  init(handler: @escaping (any Error) throws -> Observable<Element>, observer: Observer<Element>, cancel: any Cancelable) {
    self.handler = handler
    super.init(observer: observer, cancel: cancel)
  }

  /// `.next` goes on unchanged: the `Value` leaf forwards it by pointer (`forwardNext(at:)`)
  /// without this body, so keep the two in step.
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
      continueWith(next)
    }
  }
}

// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueCatchProducer: CatchProducer<Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueCatchSink(handler: handler, observer: observer, cancel: cancel)
    let subscription = sink.run(source)
    return (consume sink, subscription)
  }
}

final class ValueCatchSink: CatchSink<Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { forwardNext(at: element) }
  override func makeProxy() -> Observer<Value> { ValueContinuationProxy(parent: self) }
}
