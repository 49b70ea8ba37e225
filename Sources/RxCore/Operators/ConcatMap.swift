extension Observable {
  /// Maps each element to an observable and concatenates them: the next inner observable is
  /// subscribed only after the previous one completed. The selector runs as elements arrive.
  public func concatMap<Result>(_ selector: @escaping (Element) throws -> Observable<Result>) -> Observable<Result> {
    ConcatMapProducer(source: self, selector: selector)
  }
}

final class ConcatMapProducer<Source, Result>: Producer<Result> {
  let source: Observable<Source>
  let selector: (Source) throws -> Observable<Result>

  init(source: Observable<Source>, selector: @escaping (Source) throws -> Observable<Result>) {
    self.source = source
    self.selector = selector
  }

  override func run(_ observer: Observer<Result>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ConcatMapSink(selector: selector, observer: observer, cancel: cancel)
    return (sink, sink.run(source))
  }
}

/// Outer and inner events are serialized through one Drain (see FlatMapSink). Subscribing
/// the next inner happens inside the drain, so a long run of inner observables that
/// complete synchronously is handled in a loop, not by recursion.
final class ConcatMapSink<Source, Result>: Sink<Source, Result> {
  enum Signal {
    case outer(Event<Source>)
    case inner(Event<Result>)
  }

  let selector: (Source) throws -> Observable<Result>
  let drain = Drain<Signal>()
  let sourceSubscription = SingleAssignmentDisposable()
  let innerSubscription = SerialDisposable()
  // Drain-owned state.
  var waiting = RingBuffer<Observable<Result>>()
  var innerActive = false
  var sourceDone = false

  init(selector: @escaping (Source) throws -> Observable<Result>, observer: Observer<Result>, cancel: any Cancelable) {
    self.selector = selector
    super.init(observer: observer, cancel: cancel)
  }

  func run(_ source: Observable<Source>) -> any Disposable {
    sourceSubscription.trySet(source.subscribe(self))
    return BinaryDisposable(sourceSubscription, innerSubscription)
  }

  override func on(_ event: Event<Source>) { submit(.outer(event)) }

  func submit(_ signal: Signal) { drain.submit(signal) { self.handle($0) } }

  private func subscribeInner(_ inner: Observable<Result>) {
    innerActive = true
    let subscription = SingleAssignmentDisposable()
    innerSubscription.set(subscription)
    subscription.trySet(inner.subscribe(ConcatMapInner(parent: self)))
  }

  private func handle(_ signal: Signal) {
    if isDisposed { return }
    switch signal {
    case .outer(.next(let element)):
      let inner: Observable<Result>
      do { inner = try selector(element) } catch {
        forwardTerminal(.error(error))
        return
      }
      if innerActive { waiting.append(inner) } else { subscribeInner(inner) }
    case .outer(.error(let error)), .inner(.error(let error)):
      forwardTerminal(.error(error))
    case .outer(.completed):
      sourceDone = true
      sourceSubscription.dispose()
      if !innerActive { forwardTerminal(.completed) }
    case .inner(.next(let element)):
      forwardOn(.next(element))
    case .inner(.completed):
      if let next = waiting.popFirst() {
        subscribeInner(next)
      } else {
        innerActive = false
        innerSubscription.set(nil)
        if sourceDone { forwardTerminal(.completed) }
      }
    }
  }
}

final class ConcatMapInner<Source, Result>: Observer<Result> {
  let parent: ConcatMapSink<Source, Result>
  init(parent: ConcatMapSink<Source, Result>) { self.parent = parent }
  override func on(_ event: Event<Result>) { parent.submit(.inner(event)) }
}
