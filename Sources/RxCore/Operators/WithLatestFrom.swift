extension Observable {
  /// Combines each element with the latest element of `other` (elements arriving before
  /// `other` emitted are dropped). Completes with the source; an error of either fails it.
  public func withLatestFrom<Other, Result>(
    _ other: Observable<Other>, resultSelector: @escaping (Element, Other) throws -> Result
  ) -> Observable<Result> {
    WithLatestFromProducer(source: self, other: other, resultSelector: resultSelector)
  }
}

extension Observable where Element == Value {
  public func withLatestFrom(
    _ other: Observable<Value>, resultSelector: @escaping (Value, Value) throws -> Value
  ) -> Observable<Value> {
    ValueWithLatestFromProducer(source: self, other: other, resultSelector: resultSelector)
  }
}

class WithLatestFromProducer<Source, Other, Result>: Producer<Result> {
  let source: Observable<Source>
  let other: Observable<Other>
  let resultSelector: (Source, Other) throws -> Result

  init(source: Observable<Source>, other: Observable<Other>, resultSelector: @escaping (Source, Other) throws -> Result) {
    self.source = source
    self.other = other
    self.resultSelector = resultSelector
  }

  override func run(_ observer: Observer<Result>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = WithLatestFromSink(parent: self, observer: observer, cancel: cancel)
    return (sink, sink.run())
  }
}

/// Source and other events are serialized through one Drain.
class WithLatestFromSink<Source, Other, Result>: Sink<Source, Result> {
  enum Signal {
    case source(Event<Source>)
    case other(Event<Other>)
  }

  let parent: WithLatestFromProducer<Source, Other, Result>
  let drain = Drain<Signal>()
  let sourceSubscription = SingleAssignmentDisposable()
  let otherSubscription = SingleAssignmentDisposable()
  var latest: Other?  // drain-owned

  init(parent: WithLatestFromProducer<Source, Other, Result>, observer: Observer<Result>, cancel: any Cancelable) {
    self.parent = parent
    super.init(observer: observer, cancel: cancel)
  }

  func run() -> any Disposable {
    otherSubscription.trySet(parent.other.subscribe(makeOther()))
    if !wantsNoMoreEvents { sourceSubscription.trySet(parent.source.subscribe(self)) }
    return BinaryDisposable(sourceSubscription, otherSubscription)
  }

  /// The observer of `other` (a hook for the Value leaf).
  func makeOther() -> Observer<Other> { WithLatestFromOther(parent: self) }

  // Inline when the drain is free: the event is handled where it is, not copied into a signal.
  override func on(_ event: Event<Source>) {
    drain.submit(.source(event), inline: { handleSource(event) }) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item) } }
  }

  final func submitOther(_ event: Event<Other>) {
    drain.submit(.other(event), inline: { handleOther(event) }) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item) } }
  }

  private func handle(_ signal: Signal) {
    switch signal {
    case .source(let event): handleSource(event)
    case .other(let event): handleOther(event)
    }
  }

  private func handleSource(_ event: Event<Source>) {
    if isDisposed { return }
    switch event {
    case .next(let element):
      guard let latest else { return }
      let result: Result
      do { result = try parent.resultSelector(element, latest) } catch {
        forwardTerminal(.error(error))
        return
      }
      forwardOn(.next(result))
    case .error(let error):
      forwardTerminal(.error(error))
    case .completed:
      forwardTerminal(.completed)
    }
  }

  private func handleOther(_ event: Event<Other>) {
    if isDisposed { return }
    switch event {
    case .error(let error):
      forwardTerminal(.error(error))
    case .next(let element):
      latest = element
    case .completed:
      otherSubscription.dispose()
    }
  }
}

class WithLatestFromOther<Source, Other, Result>: Observer<Other> {
  let parent: WithLatestFromSink<Source, Other, Result>
  init(parent: WithLatestFromSink<Source, Other, Result>) { self.parent = parent }
  override func on(_ event: Event<Other>) { parent.submitOther(event) }
  override var wantsNoMoreEvents: Bool { parent.wantsNoMoreEvents }
}

// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueWithLatestFromProducer: WithLatestFromProducer<Value, Value, Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueWithLatestFromSink(parent: self, observer: observer, cancel: cancel)
    return (sink, sink.run())
  }
}

final class ValueWithLatestFromSink: WithLatestFromSink<Value, Value, Value> {
  override func makeOther() -> Observer<Value> { ValueWithLatestFromOther(parent: self) }
  override func on(_ event: Event<Value>) { super.on(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { super.on(.next(Value.copy(at: element))) }
}

final class ValueWithLatestFromOther: WithLatestFromOther<Value, Value, Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { super.on(.next(Value.copy(at: element))) }
  override var wantsNoMoreEvents: Bool { super.wantsNoMoreEvents }
}
