import Synchronization

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

/// Inner events and the outer terminal event go through one Drain: state changes and
/// delivery happen on whichever thread drains, one at a time, with no lock held while
/// calling downstream. Outer elements are handled directly in `on` (upstream serializes
/// them): the inner observable is subscribed outside the drain, so one that emits while
/// being subscribed is delivered at once (and can be stopped by a done downstream) instead
/// of piling up in the queue.
///
/// Open, with inlinable bodies, so that a caller that knows the types can subclass it (and
/// `FlatMapInner`) and get specialized event paths; `select` and `makeInner` are its hooks.
open class FlatMapSink<Source, Result>: Sink<Source, Result> {
  public enum Signal {
    case fail(any Error)
    case outerCompleted
    case inner(Event<Result>, CompositeDisposable.Key)
  }

  /// Nil for a subclass that overrides `select`.
  @usableFromInline let selector: ((Source) throws -> Observable<Result>)?
  @usableFromInline let drain = Drain<Signal>()
  @usableFromInline let group = CompositeDisposable()
  @usableFromInline let sourceSubscription = SingleAssignmentDisposable()
  /// Inner subscriptions not yet completed: raised by `on`, lowered in the drain.
  @usableFromInline let active = Atomic<Int>(0)
  @usableFromInline var sourceDone = false  // drain-owned

  public init(selector: ((Source) throws -> Observable<Result>)?, observer: Observer<Result>, cancel: any Cancelable) {
    self.selector = selector
    super.init(observer: observer, cancel: cancel)
  }

  /// The inner observable for one outer element.
  @inlinable open func select(_ element: Source) throws -> Observable<Result> { try selector!(element) }

  /// The observer of one inner subscription.
  @inlinable open func makeInner() -> FlatMapInner<Source, Result> { FlatMapInner(parent: self) }

  public final func run(_ source: Observable<Source>) -> any Disposable {
    group.insert(sourceSubscription)
    sourceSubscription.trySet(source.subscribe(self))
    return group
  }

  @inlinable @inline(__always) open override func on(_ event: Event<Source>) {
    switch event {
    case .next(let element):
      if wantsNoMoreEvents { return }
      let inner: Observable<Result>
      do { inner = try select(element) } catch {
        submit(.fail(error))
        return
      }
      let observer = makeInner()
      guard let key = group.insert(observer) else { return }
      observer.key = key
      // Raised before the outer completion can be submitted (upstream serializes on).
      active.add(1, ordering: .acquiringAndReleasing)
      observer.setSubscription(inner.subscribe(observer))
    case .error(let error): submit(.fail(error))
    case .completed: submit(.outerCompleted)
    }
  }

  @inlinable public final func submit(_ signal: Signal) { drain.submit(signal) { self.handle($0) } }

  @inlinable final func handle(_ signal: Signal) {
    if isDisposed { return }
    switch signal {
    case .fail(let error), .inner(.error(let error), _):
      forwardTerminal(.error(error))
    case .outerCompleted:
      sourceDone = true
      sourceSubscription.dispose()
      if active.load(ordering: .acquiring) == 0 { forwardTerminal(.completed) }
    case .inner(.next(let element), _):
      forwardOn(.next(element))
    case .inner(.completed, let key):
      group.remove(for: key)
      let left = active.subtract(1, ordering: .acquiringAndReleasing).newValue
      if sourceDone && left == 0 { forwardTerminal(.completed) }
    }
  }
}

/// The observer of one inner subscription, and the group's disposable for it (one object,
/// no SingleAssignmentDisposable): `setSubscription` and `dispose` may race; whichever comes
/// second disposes the subscription.
open class FlatMapInner<Source, Result>: Observer<Result>, Disposable {
  @usableFromInline let parent: FlatMapSink<Source, Result>
  /// Set by the parent before it subscribes this observer.
  @usableFromInline var key: CompositeDisposable.Key?
  /// 1: disposed, 2: subscription set.
  private let state = Atomic<UInt8>(0)
  private var subscription: (any Disposable)?

  public init(parent: FlatMapSink<Source, Result>) { self.parent = parent }

  @inlinable @inline(__always) open override func on(_ event: Event<Result>) { parent.submit(.inner(event, key!)) }

  public final func setSubscription(_ d: any Disposable) {
    subscription = d
    if state.bitwiseOr(2, ordering: .acquiringAndReleasing).oldValue & 1 != 0 { disposeSubscription() }
  }

  public final func dispose() {
    let previous = state.bitwiseOr(1, ordering: .acquiringAndReleasing).oldValue
    if previous & 1 == 0 && previous & 2 != 0 { disposeSubscription() }
  }

  /// Only the caller that set the second of the two bits gets here.
  private func disposeSubscription() {
    let d = subscription
    subscription = nil
    d?.dispose()
  }

  @inlinable open override var wantsNoMoreEvents: Bool { parent.wantsNoMoreEvents }
}
