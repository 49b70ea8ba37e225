import Synchronization

/// Replays up to `bufferSize` recent elements (or all, unbounded) to each new subscriber,
/// then continues live (RxSwift's `ReplaySubject`). After a stop event late subscribers get
/// the buffer and then the stop event; after dispose, `RxError.disposed` (the buffer is
/// freed). Serialized like `PublishSubject`.
public final class ReplaySubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable {
  /// Int.max when unbounded.
  public let bufferSize: Int
  @usableFromInline let drain = Drain<SubjectOp<Element>>()
  @usableFromInline let flags = Atomic<UInt32>(0)
  @usableFromInline let observerCount = Atomic<Int>(0)
  /// Made once, in the (specialized) initializer: see `SubjectSubscription`.
  @usableFromInline let detach: SubjectSubscription.Detach
  // Drain-owned state: touched only inside `handle`.
  @usableFromInline var observers = SubjectObservers<Element>()
  @usableFromInline var buffer: ReplayBuffer<Element>
  @usableFromInline var stopEvent: Event<Element>?
  @usableFromInline var disposed = false

  /// A replay subject keeping the last `bufferSize` (>= 1) elements.
  @inlinable public init(bufferSize: Int) {
    precondition(bufferSize >= 1, "ReplaySubject buffer size must be at least 1")
    self.bufferSize = bufferSize
    buffer = ReplayBuffer(limit: bufferSize)
    detach = { owner, subscription in
      unsafeDowncast(owner, to: ReplaySubject<Element>.self).unsubscribe(subscription)
    }
    super.init()
    Resources.increment()
  }

  @inlinable public static func create(bufferSize: Int) -> ReplaySubject { ReplaySubject(bufferSize: bufferSize) }
  @inlinable public static func createUnbounded() -> ReplaySubject { ReplaySubject(bufferSize: .max) }

  deinit {
    observers.deallocate()
    buffer.deallocate()
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

  /// `emit(.next(element))` for the hot path: when the drain is idle the element joins the
  /// buffer and goes straight to the observers, with no `SubjectOp` built.
  @inlinable @discardableResult
  public func emitNext(_ element: borrowing Element) -> SubjectOutcome {
    drain.emitNext(element, flags, live: { !disposed && stopEvent == nil }, deliver: { takeNext($0) }) {
      [unowned(unsafe) self] in self.handle($0)
    }
  }

  // Drain-owned, like `handle`.
  @inlinable
  final func takeNext(_ element: borrowing Element) {
    buffer.append(copy element)
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
  /// When the drain is idle this runs inline, without building a `SubjectOp`.
  /// (Spelled out as `PublishSubject`'s: through `submit(_:inline:_:)` the closures' captures
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
      case .error, .completed:
        stopEvent = event
        observers.removeAll { $0.on(event) }
        observerCount.store(0, ordering: .relaxed)
      }
    case .add(let subscription, let observer):
      add(subscription, observer)
    case .remove(let subscription):
      remove(subscription)
    case .dispose:
      disposed = true
      stopEvent = nil
      buffer.removeAll()
      observers.removeAll { $0.dropped() }
      observerCount.store(0, ordering: .relaxed)
    }
  }

  // Drain-owned, like `handle`.
  @inlinable
  final func add(_ subscription: SubjectMember<Element>, _ observer: Observer<Element>) {
    if subscription.isDisposed { return }
    if disposed { return observer.on(.error(RxError.disposed)) }
    // The buffer cannot change meanwhile: handlers never nest.
    switch subscription {
    case .owned:  // checks its own disposal between elements
      buffer.forEachRun { run in
        observer.onNext(contentsOf: run)
        return !observer.wantsNoMoreEvents
      }
    case .subscription(let s):
      buffer.forEachRun { run in
        for element in run {
          if s.isDisposed { return false }
          observer.on(.next(element))
        }
        return true
      }
    }
    if let stopEvent {
      if !subscription.isDisposed { observer.on(stopEvent) }
      return
    }
    if subscription.isDisposed { return }
    observers.insert(observer, subscription)
    observerCount.store(observers.count, ordering: .relaxed)
  }

  @inlinable
  final func remove(_ subscription: SubjectMember<Element>) {
    observers.remove(subscription)
    observerCount.store(observers.count, ordering: .relaxed)
  }
}
