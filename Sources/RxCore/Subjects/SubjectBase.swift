import Synchronization

/// What every subject kind shares: one `Drain` through which every event, subscription,
/// unsubscription and dispose goes (so all observers see one serialized order, and a
/// re-entrant call is handled after the current one returns; no callback runs under a
/// lock), the call-time flags, the observer list and the stop event.
///
/// A kind (`PublishSubject`, `BehaviorSubject`, ...) adds its own state and its drain
/// handler, which it hands over as a capture-free thunk made in its (specialized)
/// initializer: the shared methods here are final and reach the handler with one direct
/// closure call, no vtable. The per-event path, `emitNext`, stays in each kind, which calls
/// its own handler directly.
public class SubjectBase<Element>: Observable<Element> {
  @usableFromInline typealias Handler = (SubjectBase<Element>, SubjectOp<Element>) -> Void

  @usableFromInline let drain = Drain<SubjectOp<Element>>()
  @usableFromInline let flags = Atomic<UInt32>(0)
  @usableFromInline let observerCount = Atomic<Int>(0)
  /// Made once, in the (specialized) initializer: see `SubjectSubscription`.
  @usableFromInline let detach: SubjectSubscription.Detach
  @usableFromInline let handler: Handler
  // Drain-owned state: touched only inside the handler. Final: a stored property of a class
  // that is not final is otherwise reached through its accessors.
  @usableFromInline final var observers = SubjectObservers<Element>()
  @usableFromInline final var stopEvent: Event<Element>?
  @usableFromInline final var disposed = false
  /// Neither stopped nor disposed: events still count. Kept beside `stopEvent` and
  /// `disposed` because testing the optional event for nil copies and destroys it.
  @usableFromInline final var isLive = true

  @inlinable init(handler: @escaping Handler) {
    self.handler = handler
    if Element.self == Value.self {
      detach = valueSubjectDetach  // no context: a dispose retains and releases nothing to call it
    } else {
      detach = { owner, subscription in
        unsafeDowncast(owner, to: SubjectBase<Element>.self).unsubscribe(subscription)
      }
    }
    super.init()
    Resources.increment()
  }

  deinit {
    observers.deallocate()
    Resources.decrement()
  }

  @inlinable final func submit(_ op: SubjectOp<Element>) {
    // Through Unmanaged: an `unowned(unsafe)` capture is still retained around the call.
    let me = Unmanaged.passUnretained(self)
    drain.submit(op) { op in me._withUnsafeGuaranteedRef { $0.handler($0, op) } }
  }

  /// `emit` of a stop event: of several racing ones exactly one is accepted.
  @inlinable @discardableResult
  public final func emitStop(_ event: Event<Element>) -> SubjectOutcome {
    let outcome = SubjectFlags.admit(flags, stop: event.isStopEvent)
    if case .accepted = outcome { submit(.event(event)) }
    return outcome
  }

  public override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    attach(observer)
  }

  /// `subscribe` without the dynamic dispatch, so callers that know `Element` (the C layer)
  /// run specialized code.
  @inlinable
  public final func attach(_ observer: Observer<Element>) -> any Disposable {
    let subscription = SubjectSubscription.make(owner: self, detach: detach)
    submit(.add(.queued(subscription), observer))
    return subscription
  }

  /// When the drain is idle the removal runs inline, with no `SubjectOp` built (what the
  /// handler does with `.remove`).
  @inlinable
  final func unsubscribe(_ subscription: SubjectSubscription) {
    let me = Unmanaged.passUnretained(self)
    @inline(__always) func removeNow() { remove(.inline(subscription)) }  // (a closure literal stayed a call)
    drain.submit(.remove(.queued(subscription)), inline: removeNow) { op in me._withUnsafeGuaranteedRef { $0.handler($0, op) } }
  }

  /// Removes an observer that `attachOwned` attached. When the drain is idle this runs
  /// inline. (Spelled out rather than through `submit(_:inline:_:)`, whose closures'
  /// captures cost a retain/release pair of `self` per call.)
  @inlinable public final func detachOwned(_ observer: Observer<Element>) {
    if drain.enter({ [me = Unmanaged.passUnretained(self)] op in me._withUnsafeGuaranteedRef { $0.handler($0, op) } }) {
      remove(.owned(observer))
      drain.exit { [me = Unmanaged.passUnretained(self)] op in me._withUnsafeGuaranteedRef { $0.handler($0, op) } }
    } else {
      drain.submitQueued(.remove(.owned(observer))) { [me = Unmanaged.passUnretained(self)] op in me._withUnsafeGuaranteedRef { $0.handler($0, op) } }
    }
  }

  /// Drops every observer (each gets `dropped()`); later subscribers get `RxError.disposed`.
  @inlinable public final func dispose() {
    if SubjectFlags.markDisposed(flags) { submit(.dispose) }
  }

  /// Keeps this subject alive until its current drain ends: for a last reference dropped
  /// from inside one of its own callbacks, while its emitting caller still runs on it.
  public final func keepAliveWhileDraining() { drain.keepAliveWhileDraining(self) }

  @inlinable public final var shared: SubjectBase<Element> { self }

  public final var isDisposed: Bool { SubjectFlags.isDisposed(flags) }
  public final var hasObservers: Bool { observerCount.load(ordering: .relaxed) > 0 }

  /// True when an element emitted now would reach no observer: none is listed and nothing
  /// that could add one is pending. A subscription that returned before this call was
  /// handled by then or is still queued (see `Drain.isQuiet`), so it is never missed; one
  /// that races the call may take effect after it, as it could anyway. False on the drain
  /// holder's own thread: a re-entrant element waits for what the handler is doing.
  @inlinable final var unobserved: Bool {
    // The first look lets an observed subject pay one load; the second is the one that
    // counts, after `isQuiet`.
    observerCount.load(ordering: .relaxed) == 0 && drain.isQuiet
      && observerCount.load(ordering: .acquiring) == 0
  }

  // MARK: the handlers' shared steps (drain-owned)

  /// The stop event: every observer gets it and leaves.
  @inlinable final func deliverStop(_ event: Event<Element>) {
    stopEvent = event
    isLive = false
    observers.removeAll { $0.on(event) }
    observerCount.store(0, ordering: .relaxed)
  }

  /// The dispose: every observer is dropped; later subscribers get `RxError.disposed`.
  @inlinable final func dropAll() {
    disposed = true
    stopEvent = nil
    isLive = false
    observers.removeAll { $0.dropped() }
    observerCount.store(0, ordering: .relaxed)
  }

  /// The start of every add: false when the subscription was disposed meanwhile, or the
  /// subject was (then the observer got `RxError.disposed`).
  @inlinable final func admit(_ subscription: SubjectMember<Element>, _ observer: Observer<Element>) -> Bool {
    if subscription.isDisposed { return false }
    if disposed {
      observer.on(.error(RxError.disposed))
      return false
    }
    return true
  }

  @inlinable final func insert(_ observer: Observer<Element>, _ subscription: SubjectMember<Element>) {
    observers.insert(observer, subscription)
    observerCount.store(observers.count, ordering: .relaxed)
  }

  @inlinable final func remove(_ subscription: SubjectMember<Element>) {
    observers.remove(subscription)
    observerCount.store(observers.count, ordering: .relaxed)
  }
}

/// What each subject kind supplies to the shared methods below, which its callers reach
/// with static dispatch (specialized, no vtable).
public protocol SubjectKind<Element>: AnyObject {
  associatedtype Element
  /// Drain-owned (called only by the thread holding the subject's drain): the kind's
  /// bookkeeping of a next element, and its delivery.
  func takeNext(_ element: borrowing Element)
  /// `takeNext` of the element at `element` (a kind that only delivers reads it in place).
  func takeNext(at element: UnsafePointer<Element>)
  /// True when `takeNext` keeps nothing of an element, only delivers it: with no observer
  /// and nothing pending it does nothing, and `emitNext` can skip the drain.
  static var takeNextOnlyDelivers: Bool { get }
  /// Drain-owned: adds an observer that keeps its own subscription state.
  func addOwnedNow(_ observer: Observer<Element>)
  /// The subject itself, as its shared part (`SubjectBase` supplies it).
  var shared: SubjectBase<Element> { get }
}

extension SubjectKind {
  @inlinable public static var takeNextOnlyDelivers: Bool { false }
  @inlinable public func takeNext(at element: UnsafePointer<Element>) { takeNext(element.pointee) }

  /// Emits `event` and says whether it was taken.
  @inlinable @discardableResult
  public func emit(_ event: Event<Element>) -> SubjectOutcome {
    if case .next(let element) = event { return emitNext(element) }
    return shared.emitStop(event)
  }

  @inlinable public func on(_ event: Event<Element>) { emit(event) }

  /// `emit(.next(element))`, the per-event path: when the drain is idle the element goes to
  /// `takeNext` at once, with no `SubjectOp` built, copied or destroyed. An element that
  /// would reach nobody (see `unobserved`) does not even enter the drain. Always inlined:
  /// as a call of its own it saved and restored five registers and built a frame per event
  /// on top of its caller's (through `rx_subject_on_next`, which now jumps to the one
  /// frame: W1 160 -> 145 instructions per event).
  @inlinable @inline(__always) @discardableResult
  public func emitNext(_ element: borrowing Element) -> SubjectOutcome {
    let base = shared
    return base.drain.emitNext(
      element, base.flags, unobserved: { Self.takeNextOnlyDelivers && base.unobserved },
      live: { base.isLive }, deliver: { takeNext($0) }
    ) { [me = Unmanaged.passUnretained(base)] op in me._withUnsafeGuaranteedRef { $0.handler($0, op) } }
  }

  /// `emitNext` of the element at `element`, read where it is: a value the caller lends (a box
  /// it holds) is copied only if the subject keeps it or has to queue it. Always inlined, as
  /// `emitNext` is.
  @inlinable @inline(__always) @discardableResult
  public func emitNext(at element: UnsafePointer<Element>) -> SubjectOutcome {
    let base = shared
    return base.drain.emitNext(
      at: element, base.flags, unobserved: { Self.takeNextOnlyDelivers && base.unobserved },
      live: { base.isLive }, deliver: { takeNext(at: $0) }
    ) { [me = Unmanaged.passUnretained(base)] op in me._withUnsafeGuaranteedRef { $0.handler($0, op) } }
  }

  /// Attaches an observer that keeps its own subscription state (`SubjectMember.owned`): no
  /// subscription object is made, and `detachOwned` removes it. When the drain is idle this
  /// runs inline, without building a `SubjectOp`.
  @inlinable public func attachOwned(_ observer: Observer<Element>) {
    let base = shared
    if base.drain.enter({ [me = Unmanaged.passUnretained(base)] op in me._withUnsafeGuaranteedRef { $0.handler($0, op) } }) {
      addOwnedNow(observer)
      base.drain.exit { [me = Unmanaged.passUnretained(base)] op in me._withUnsafeGuaranteedRef { $0.handler($0, op) } }
    } else {
      base.drain.submitQueued(.add(.owned(observer), observer)) { [me = Unmanaged.passUnretained(base)] op in me._withUnsafeGuaranteedRef { $0.handler($0, op) } }
    }
  }
}

/// The drain's step of `emitNext`, beside its one caller: the whole per-event path of a
/// subject (flags, drain, delivery) reads in this file.
extension Drain {
  /// The `.next` path every subject shares: when the drain is idle, `deliver` runs inline on
  /// the caller's element (no `SubjectOp` or `Event` built, copied or destroyed); otherwise the
  /// element is queued as an event, for whoever holds the drain; when `unobserved` says it
  /// would reach nobody, neither. `deliver` runs only while the subject is neither stopped
  /// nor disposed. `handle` is the subject's drain handler
  /// (reach the subject through `Unmanaged._withUnsafeGuaranteedRef`: a strong or even an
  /// `unowned(unsafe)` capture costs a retain/release of it per call).
  @inlinable @inline(__always)
  func emitNext<Element>(
    _ element: borrowing Element, _ flags: borrowing Atomic<UInt32>, unobserved: () -> Bool,
    live: () -> Bool, deliver: (borrowing Element) -> Void, _ handle: (Item) -> Void
  ) -> SubjectOutcome where Item == SubjectOp<Element> {
    let s = flags.load(ordering: .acquiring)
    if s & SubjectFlags.disposed != 0 { return .afterDispose }
    if s & SubjectFlags.stopped != 0 { return .ignoredAfterStop }
    if unobserved() { return .accepted }  // the drain would take it and deliver it to nobody
    if enter(handle) {
      if live() { deliver(element) }
      exit(handle)
    } else {
      submitQueued(.event(.next(copy element)), handle)
    }
    return .accepted
  }

  /// `emitNext` of the element at `element`, which `deliver` reads in place: copied only into
  /// the queue. (Not the borrowing form through a pointer: measured, that costs the plain
  /// path a store and reload per event; nor the element passed on as `pointee`: that copies.)
  @inlinable @inline(__always)
  func emitNext<Element>(
    at element: UnsafePointer<Element>, _ flags: borrowing Atomic<UInt32>, unobserved: () -> Bool,
    live: () -> Bool, deliver: (UnsafePointer<Element>) -> Void, _ handle: (Item) -> Void
  ) -> SubjectOutcome where Item == SubjectOp<Element> {
    let s = flags.load(ordering: .acquiring)
    if s & SubjectFlags.disposed != 0 { return .afterDispose }
    if s & SubjectFlags.stopped != 0 { return .ignoredAfterStop }
    if unobserved() { return .accepted }
    if enter(handle) {
      if live() { deliver(element) }
      exit(handle)
    } else {
      submitQueued(.event(.next(element.pointee)), handle)
    }
    return .accepted
  }
}

/// The drain handler every kind shares, over the kind's hooks (all drain-owned).
@usableFromInline protocol SubjectHandling: SubjectKind {
  /// The start or end of a subscription.
  func add(_ subscription: SubjectMember<Element>, _ observer: Observer<Element>)
  /// The stop event (the default: every observer gets it and leaves).
  func takeStop(_ event: Event<Element>)
  /// Before every observer is dropped by a dispose (the default: nothing).
  func willDispose()
}

extension SubjectHandling {
  @inlinable func takeStop(_ event: Event<Element>) { shared.deliverStop(event) }
  @inlinable func willDispose() {}

  /// `attach`, for each kind's `subscribe`: when the drain is idle the add runs inline, with
  /// no `SubjectOp` built (and no retain and release of the observer and the subscription
  /// for it), as `attachOwned` does.
  @inlinable func attachNow(_ observer: Observer<Element>) -> SubjectSubscription {
    let base = shared
    let subscription = SubjectSubscription.make(owner: base, detach: base.detach)
    if base.drain.enter({ [me = Unmanaged.passUnretained(base)] op in me._withUnsafeGuaranteedRef { $0.handler($0, op) } }) {
      add(.fresh(Unmanaged.passUnretained(subscription)), observer)
      base.drain.exit { [me = Unmanaged.passUnretained(base)] op in me._withUnsafeGuaranteedRef { $0.handler($0, op) } }
    } else {
      base.drain.submitQueued(.add(.queued(subscription), observer)) {
        [me = Unmanaged.passUnretained(base)] op in me._withUnsafeGuaranteedRef { $0.handler($0, op) }
      }
    }
    return subscription
  }

  /// The handler of every `SubjectOp`: the one place a subject's state changes.
  @inlinable func handle(_ op: SubjectOp<Element>) {
    let base = shared
    switch op {
    case .event(let event):
      if !base.isLive { return }
      if case .next(let element) = event { takeNext(element) } else { takeStop(event) }
    case .add(let subscription, let observer):
      add(subscription, observer)
      subscription.handled()
    case .remove(let subscription):
      base.remove(subscription)
      subscription.handled()
    case .dispose:
      willDispose()
      base.dropAll()
    }
  }
}

/// `SubjectBase.detach` of every `Value` subject: made in no generic context, so it captures
/// nothing (a closure that captures something is retained and released around every call
/// through the subscription's `var`).
@usableFromInline let valueSubjectDetach: SubjectSubscription.Detach = { owner, subscription in
  unsafeDowncast(owner, to: SubjectBase<Value>.self).unsubscribe(subscription)
}
