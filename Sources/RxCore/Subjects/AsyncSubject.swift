import Synchronization

/// Emits only the last element, and only when the source completes (RxSwift's
/// `AsyncSubject`): observers get that element then `completed`, or just `completed` if
/// there was none, or the error. Late subscribers get the same; after dispose,
/// `RxError.disposed`. Serialized like `PublishSubject`.
public final class AsyncSubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable {
  @usableFromInline let drain = Drain<SubjectOp<Element>>()
  @usableFromInline let flags = Atomic<UInt32>(0)
  @usableFromInline let observerCount = Atomic<Int>(0)
  /// Made once, in the (specialized) initializer: see `SubjectSubscription`.
  @usableFromInline let detach: SubjectSubscription.Detach
  // Drain-owned state: touched only inside `handle`.
  @usableFromInline var observers = SubjectObservers<Element>()
  @usableFromInline var last: Element?
  @usableFromInline var stopEvent: Event<Element>?
  @usableFromInline var disposed = false

  @inlinable public override init() {
    detach = { owner, subscription in
      unsafeDowncast(owner, to: AsyncSubject<Element>.self).unsubscribe(subscription)
    }
    super.init()
    Resources.increment()
  }

  deinit {
    observers.deallocate()
    Resources.decrement()
  }

  @inlinable @discardableResult
  public func emit(_ event: Event<Element>) -> SubjectOutcome {
    if case .next(let element) = event { return emitNext(element) }
    let outcome = SubjectFlags.admit(flags, stop: event.isStopEvent)
    if case .accepted = outcome { drain.submit(.event(event)) { self.handle($0) } }
    return outcome
  }

  @inlinable public func on(_ event: Event<Element>) { emit(event) }

  /// `emit(.next(element))` for the hot path: when the drain is idle the element becomes
  /// the last one at once, with no `SubjectOp` built.
  @inlinable @discardableResult
  public func emitNext(_ element: borrowing Element) -> SubjectOutcome {
    drain.emitNext(element, flags, live: { !disposed && stopEvent == nil }, deliver: { last = copy $0 }) {
      [unowned(unsafe) self] in self.handle($0)
    }
  }

  public override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    attach(observer)
  }

  /// `subscribe` without the dynamic dispatch, so callers that know `Element` (the C layer)
  /// run specialized code.
  @inlinable
  public func attach(_ observer: Observer<Element>) -> SubjectSubscription {
    let subscription = SubjectSubscription(owner: self, detach: detach)
    drain.submit(.add(.subscription(subscription), observer)) { self.handle($0) }
    return subscription
  }

  @inlinable
  func unsubscribe(_ subscription: SubjectSubscription) {
    drain.submit(.remove(.subscription(subscription))) { self.handle($0) }
  }

  /// Attaches an observer that keeps its own subscription state (`SubjectMember.owned`): no
  /// subscription object is made, and `detachOwned` removes it.
  @inlinable public func attachOwned(_ observer: Observer<Element>) {
    drain.submit(.add(.owned(observer), observer)) { self.handle($0) }
  }

  @inlinable public func detachOwned(_ observer: Observer<Element>) {
    drain.submit(.remove(.owned(observer))) { self.handle($0) }
  }

  @inlinable public func dispose() {
    if SubjectFlags.markDisposed(flags) { drain.submit(.dispose) { self.handle($0) } }
  }

  /// Keeps this subject alive until its current drain ends: for a last reference dropped
  /// from inside one of its own callbacks, while its emitting caller still runs on it.
  public func keepAliveWhileDraining() { drain.keepAliveWhileDraining(self) }

  public var isDisposed: Bool { SubjectFlags.isDisposed(flags) }
  public var hasObservers: Bool { observerCount.load(ordering: .relaxed) > 0 }

  @inlinable
  final func handle(_ op: SubjectOp<Element>) {
    switch op {
    case .event(let event):
      if disposed || stopEvent != nil { return }
      switch event {
      case .next(let element):
        last = element
      case .error:
        stopEvent = event
        observers.removeAll { $0.on(event) }
        observerCount.store(0, ordering: .relaxed)
      case .completed:
        stopEvent = event
        if let last {
          // As RxSwift: the value to everyone, then completed to everyone.
          observers.deliver(.next(last))
        }
        observers.removeAll { $0.on(.completed) }
        observerCount.store(0, ordering: .relaxed)
      }
    case .add(let subscription, let observer):
      if subscription.isDisposed { return }
      if disposed { return observer.on(.error(RxError.disposed)) }
      if let stopEvent {
        if case .completed = stopEvent, let last {
          observer.on(.next(last))
          if subscription.isDisposed { return }
        }
        return observer.on(stopEvent)
      }
      observers.insert(observer, subscription)
      observerCount.store(observers.count, ordering: .relaxed)
    case .remove(let subscription):
      observers.remove(subscription)
      observerCount.store(observers.count, ordering: .relaxed)
    case .dispose:
      disposed = true
      stopEvent = nil
      last = nil
      observers.removeAll { $0.dropped() }
      observerCount.store(0, ordering: .relaxed)
    }
  }
}
