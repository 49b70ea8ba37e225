extension Observable {
  /// On error, continues with the observable `handler` returns for it; a thrown error
  /// fails the stream with that error.
  public func `catch`(_ handler: @escaping (any Error) throws -> Observable<Element>) -> Observable<Element> {
    CatchProducer(source: self, handler: handler)
  }

  // rx:value-overload
  /// On error, emits `element` and completes.
  public func catchAndReturn(_ element: Element) -> Observable<Element> {
    CatchProducer(source: self, handler: { _ in Just(element) })
  }
}

extension Observable where Element == Value {
  public func `catch`(_ handler: @escaping (any Error) throws -> Observable<Value>) -> Observable<Value> {
    ValueCatchProducer(source: self, handler: handler)
  }

}

// rx:value-leaf copy=run
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

// rx:value-leaf copy=makeProxy on next=forward
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
