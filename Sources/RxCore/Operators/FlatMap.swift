extension Observable {
  /// Maps each element to an observable and merges all of them. Completes when the source
  /// and every inner observable have completed; the first error ends everything.
  public func flatMap<Result>(_ selector: @escaping (Element) throws -> Observable<Result>) -> Observable<Result> {
    FlatMapProducer(source: self, selector: selector)
  }
}

final class FlatMapProducer<Source, Result>: Producer<Result> {
  let source: Observable<Source>
  let selector: (Source) throws -> Observable<Result>

  init(source: Observable<Source>, selector: @escaping (Source) throws -> Observable<Result>) {
    self.source = source
    self.selector = selector
  }

  override func run(_ observer: Observer<Result>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = FlatMapSink(selector: selector, observer: observer, cancel: cancel)
    return (sink, sink.run(source))
  }
}

/// Every event, outer or inner, goes through one Drain: state changes and delivery happen
/// on whichever thread drains, one at a time, with no lock held while calling downstream.
/// An inner observable that emits while being subscribed has its events queued, so they
/// follow the current one instead of recursing.
final class FlatMapSink<Source, Result>: Sink<Source, Result> {
  enum Signal {
    case outer(Event<Source>)
    case inner(Event<Result>, CompositeDisposable.Key)
  }

  let selector: (Source) throws -> Observable<Result>
  let drain = Drain<Signal>()
  let group = CompositeDisposable()
  let sourceSubscription = SingleAssignmentDisposable()
  // Drain-owned state.
  var active = 0
  var sourceDone = false

  init(selector: @escaping (Source) throws -> Observable<Result>, observer: Observer<Result>, cancel: any Cancelable) {
    self.selector = selector
    super.init(observer: observer, cancel: cancel)
  }

  func run(_ source: Observable<Source>) -> any Disposable {
    group.insert(sourceSubscription)
    sourceSubscription.trySet(source.subscribe(self))
    return group
  }

  override func on(_ event: Event<Source>) { submit(.outer(event)) }

  func submit(_ signal: Signal) { drain.submit(signal) { self.handle($0) } }

  private func handle(_ signal: Signal) {
    if isDisposed { return }
    switch signal {
    case .outer(.next(let element)):
      let inner: Observable<Result>
      do { inner = try selector(element) } catch {
        forwardTerminal(.error(error))
        return
      }
      let subscription = SingleAssignmentDisposable()
      guard let key = group.insert(subscription) else { return }
      active += 1
      subscription.trySet(inner.subscribe(FlatMapInner(parent: self, key: key)))
    case .outer(.error(let error)), .inner(.error(let error), _):
      forwardTerminal(.error(error))
    case .outer(.completed):
      sourceDone = true
      sourceSubscription.dispose()
      if active == 0 { forwardTerminal(.completed) }
    case .inner(.next(let element), _):
      forwardOn(.next(element))
    case .inner(.completed, let key):
      group.remove(for: key)
      active -= 1
      if sourceDone && active == 0 { forwardTerminal(.completed) }
    }
  }
}

final class FlatMapInner<Source, Result>: Observer<Result> {
  let parent: FlatMapSink<Source, Result>
  let key: CompositeDisposable.Key

  init(parent: FlatMapSink<Source, Result>, key: CompositeDisposable.Key) {
    self.parent = parent
    self.key = key
  }

  override func on(_ event: Event<Result>) { parent.submit(.inner(event, key)) }
}
