import Synchronization

/// Holds a current value: each new subscriber gets it first, then every later event
/// (RxSwift's `BehaviorSubject`). After a stop event late subscribers get only the stop
/// event; after dispose, `RxError.disposed`. Serialized like `PublishSubject`.
public final class BehaviorSubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable {
  /// What `value()` reads from any thread; written only by the drain handler.
  @usableFromInline struct Current {
    @usableFromInline var value: Element
    @usableFromInline var error: (any Error)?
    @usableFromInline var disposed = false
    @usableFromInline init(_ value: Element) { self.value = value }
  }

  @usableFromInline let drain = Drain<SubjectOp<Element>>()
  @usableFromInline let flags = Atomic<UInt32>(0)
  @usableFromInline let observerCount = Atomic<Int>(0)
  /// Made once, in the (specialized) initializer: see `SubjectSubscription`.
  @usableFromInline let detach: SubjectSubscription.Detach
  /// Guards `current` (see `SpinLock`): `value()` readers and the drain handler only copy
  /// or swap under it.
  @usableFromInline let currentLock = SpinLock()
  @usableFromInline var current: Current
  // Drain-owned state: touched only inside `handle`.
  @usableFromInline var observers = SubjectObservers<Element>()
  @usableFromInline var stopEvent: Event<Element>?
  @usableFromInline var disposed = false

  @inlinable public init(value: Element) {
    current = Current(value)
    detach = { owner, subscription in
      unsafeDowncast(owner, to: BehaviorSubject<Element>.self).unsubscribe(subscription)
    }
    super.init()
    Resources.increment()
  }

  deinit {
    observers.deallocate()
    Resources.decrement()
  }

  /// The current value, from any thread. Throws the stream's error after `onError`, and
  /// `RxError.disposed` after `dispose()`; after completion it is still the last value.
  public func value() throws -> Element {
    if SubjectFlags.isDisposed(flags) { throw RxError.disposed }
    currentLock.lock()
    let c = current
    currentLock.unlock()
    if c.disposed { throw RxError.disposed }
    if let error = c.error { throw error }
    return c.value
  }

  @inlinable @discardableResult
  public func emit(_ event: Event<Element>) -> SubjectOutcome {
    if case .next(let element) = event { return emitNext(element) }
    let outcome = SubjectFlags.admit(flags, stop: event.isStopEvent)
    if case .accepted = outcome { drain.submit(.event(event)) { self.handle($0) } }
    return outcome
  }

  @inlinable public func on(_ event: Event<Element>) { emit(event) }

  /// `emit(.next(element))` for the hot path: when the drain is idle the element becomes the
  /// current value and goes straight to the observers, with no `SubjectOp` built.
  @inlinable @discardableResult
  public func emitNext(_ element: borrowing Element) -> SubjectOutcome {
    drain.emitNext(element, flags, live: { !disposed && stopEvent == nil }, deliver: { takeNext($0) }) {
      [unowned(unsafe) self] in self.handle($0)
    }
  }

  // Drain-owned, like `handle`.
  @inlinable
  final func takeNext(_ element: borrowing Element) {
    // Swap, so the old value is released after the lock (its destructor may be user code).
    var previous = copy element
    currentLock.lock()
    swap(&current.value, &previous)
    currentLock.unlock()
    observers.deliverNext(element)
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
        takeNext(element)
      case .error(let error):
        currentLock.lock()
        current.error = error
        currentLock.unlock()
        stopEvent = event
        observers.removeAll { $0.on(event) }
        observerCount.store(0, ordering: .relaxed)
      case .completed:
        stopEvent = event
        observers.removeAll { $0.on(event) }
        observerCount.store(0, ordering: .relaxed)
      }
    case .add(let subscription, let observer):
      if subscription.isDisposed { return }
      if disposed { return observer.on(.error(RxError.disposed)) }
      if let stopEvent { return observer.on(stopEvent) }
      observers.insert(observer, subscription)
      observerCount.store(observers.count, ordering: .relaxed)
      currentLock.lock()
      let value = current.value
      currentLock.unlock()
      observer.on(.next(value))
    case .remove(let subscription):
      observers.remove(subscription)
      observerCount.store(observers.count, ordering: .relaxed)
    case .dispose:
      disposed = true
      stopEvent = nil
      currentLock.lock()
      current.disposed = true
      let error = current.error.take()
      currentLock.unlock()
      withExtendedLifetime(error) {}  // released after the lock
      observers.removeAll { $0.dropped() }
      observerCount.store(0, ordering: .relaxed)
    }
  }
}
