import Synchronization

/// Broadcasts each event to the observers subscribed at that moment (RxSwift's
/// `PublishSubject`). A late subscriber gets the stop event, or `RxError.disposed` once the
/// subject is disposed.
///
/// `on` may be called from several threads at once and from inside a callback of this
/// subject: every call, subscription, unsubscription and dispose goes through one `Drain`,
/// so all observers see one serialized order and a re-entrant event is delivered after the
/// current one returns. No callback runs under a lock.
public final class PublishSubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable {
  @usableFromInline let drain = Drain<SubjectOp<Element>>()
  @usableFromInline let flags = Atomic<UInt32>(0)
  @usableFromInline let observerCount = Atomic<Int>(0)
  /// Made once, in the (specialized) initializer: see `SubjectSubscription`.
  @usableFromInline let detach: SubjectSubscription.Detach
  // Drain-owned state: touched only inside `handle`.
  @usableFromInline var observers = SubjectObservers<Element>()
  @usableFromInline var stopEvent: Event<Element>?
  @usableFromInline var disposed = false

  @inlinable public override init() {
    detach = { owner, subscription in
      unsafeDowncast(owner, to: PublishSubject<Element>.self).unsubscribe(subscription)
    }
    super.init()
    Resources.increment()
  }

  deinit {
    observers.deallocate()
    Resources.decrement()
  }

  /// Emits `event` and says whether it was taken.
  @inlinable @discardableResult
  public func emit(_ event: Event<Element>) -> SubjectOutcome {
    if case .next(let element) = event { return emitNext(element) }
    let outcome = SubjectFlags.admit(flags, stop: event.isStopEvent)
    if case .accepted = outcome { drain.submit(.event(event)) { self.handle($0) } }
    return outcome
  }

  @inlinable public func on(_ event: Event<Element>) { emit(event) }

  /// `emit(.next(element))` for the hot path: when the drain is idle the element goes
  /// straight to the observers, with no `SubjectOp` built, copied or destroyed.
  @inlinable @discardableResult
  public func emitNext(_ element: borrowing Element) -> SubjectOutcome {
    drain.emitNext(element, flags, live: { !disposed && stopEvent == nil }, deliver: { observers.deliverNext($0) }) {
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
  /// When the drain is idle this runs inline, without building a `SubjectOp`.
  /// (Spelled out as `emitNext` is: through `submit(_:inline:_:)` the closures' captures
  /// cost a retain/release pair of `self` per call.)
  @inlinable public func attachOwned(_ observer: Observer<Element>) {
    if drain.enter({ [unowned(unsafe) self] in self.handle($0) }) {
      add(.owned(observer), observer)
      drain.exit { [unowned(unsafe) self] in self.handle($0) }
    } else {
      drain.submitQueued(.add(.owned(observer), observer)) { [unowned(unsafe) self] in self.handle($0) }
    }
  }

  @inlinable public func detachOwned(_ observer: Observer<Element>) {
    if drain.enter({ [unowned(unsafe) self] in self.handle($0) }) {
      remove(.owned(observer))
      drain.exit { [unowned(unsafe) self] in self.handle($0) }
    } else {
      drain.submitQueued(.remove(.owned(observer))) { [unowned(unsafe) self] in self.handle($0) }
    }
  }

  /// Drops every observer (each gets `dropped()`); later subscribers get `RxError.disposed`.
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
      if event.isStopEvent {
        stopEvent = event
        observers.removeAll { $0.on(event) }
        observerCount.store(0, ordering: .relaxed)
      } else {
        observers.deliver(event)
      }
    case .add(let subscription, let observer):
      add(subscription, observer)
    case .remove(let subscription):
      remove(subscription)
    case .dispose:
      disposed = true
      stopEvent = nil
      observers.removeAll { $0.dropped() }
      observerCount.store(0, ordering: .relaxed)
    }
  }

  // Drain-owned, like `handle`.
  @inlinable
  final func add(_ subscription: SubjectMember<Element>, _ observer: Observer<Element>) {
    if subscription.isDisposed { return }
    if disposed { return observer.on(.error(RxError.disposed)) }
    if let stopEvent { return observer.on(stopEvent) }
    observers.insert(observer, subscription)
    observerCount.store(observers.count, ordering: .relaxed)
  }

  @inlinable
  final func remove(_ subscription: SubjectMember<Element>) {
    observers.remove(subscription)
    observerCount.store(observers.count, ordering: .relaxed)
  }
}
