@_spi(RxC) import RxCore

/// The observable side of an rx_subject, as rx_subject_as_observable lends it. The subject
/// lives as long as its rx_subject handle, which calls `detach()` when it goes; a caller that
/// retained the observable past that sees what a disposed subject gives late subscribers.
/// Subscribing goes through `AbiSubject.attach`, so it runs specialized code.
///
/// A strong reference, not a weak one: a weakly referenced object gets a side table, and
/// then every retain and release of the subject takes the slow path. It is a `let`, kept
/// for the whole life of this object (a disposed subject answers late subscribers itself),
/// so subscribing borrows it: no lock, no retain. Only under RXC_DEBUG, where a released
/// observable handle stays allocated for ever, the subject is held in `debugSubject`
/// instead, under a lock, and `detach` lets go of it.
final class SubjectObservable: Observable<RxValue> {
  private let subject: (any AbiSubject)?
  /// `attachOwned`/`detachOwned` of `subject`, made for its concrete type: they reach it
  /// unretained (a call through the existential copies it first, a retain/release pair:
  /// two locked instructions per attach and per detach). `subject` keeps it alive.
  private let attachCall: (CObserver) -> Void
  private let detachCall: (CObserver) -> Void
  /// The same subject (or a relay's own) when it is a publish or a replay subject, as the
  /// handle found it (the sorts whose subscribe + dispose `make bench` times, W4 and W7):
  /// called directly, no closure or witness call.
  private let publish: Unmanaged<PublishSubject<RxValue>>?
  private let replay: Unmanaged<ReplaySubject<RxValue>>?
  private let lock = SpinLock()
  private var debugSubject: (any AbiSubject)?
  /// Lends the subject to tokens made on one thread (see `SubjectLender`); this object is
  /// the anchor that keeps it for them. Never under RXC_DEBUG.
  private let lender = SubjectLender()

  init(_ subject: any AbiSubject, publish: Unmanaged<PublishSubject<RxValue>>?, replay: Unmanaged<ReplaySubject<RxValue>>?) {
    (attachCall, detachCall) = Self.calls(subject)
    if debugPoison {
      self.subject = nil
      self.publish = nil
      self.replay = nil
      debugSubject = subject
    } else {
      self.subject = subject
      self.publish = publish
      self.replay = replay
      debugSubject = nil
    }
    super.init()
  }

  private static func calls<S: AbiSubject>(_ subject: S) -> ((CObserver) -> Void, (CObserver) -> Void) {
    let s = Unmanaged.passUnretained(subject)
    return ({ o in s._withUnsafeGuaranteedRef { $0.attachOwned(o) } },
            { o in s._withUnsafeGuaranteedRef { $0.detachOwned(o) } })
  }

  /// Under RXC_DEBUG: the subject, or nil once its handle is gone.
  private var currentDebugSubject: (any AbiSubject)? {
    lock.lock()
    defer { lock.unlock() }
    return debugSubject
  }

  /// Its rx_subject handle was destroyed (after disposing the subject): no more loans, and
  /// under RXC_DEBUG, lets go of the subject (this object may never be freed); otherwise the
  /// subject stays, disposed, until this goes.
  func detach() {
    guard subject == nil else {
      if lender.close() { Unmanaged.passUnretained(self).release() }  // the subject handle still holds this
      return
    }
    lock.lock()
    let s = debugSubject
    debugSubject = nil
    lock.unlock()
    withExtendedLifetime(s) {}  // released after the lock
  }

  override func subscribe(_ observer: Observer<RxValue>) -> any Disposable {
    // A publish or replay subject borrowed directly (through the existential it is copied, a
    // retain), and subscribed through its own `subscribe`: final and inlinable, so the add
    // runs inline when the drain is free, with no `SubjectOp` built.
    if let publish { return publish._withUnsafeGuaranteedRef { $0.subscribe(observer) } }
    if let replay { return replay._withUnsafeGuaranteedRef { $0.subscribe(observer) } }
    if let subject { return subject.attach(observer) }
    guard let subject = currentDebugSubject else {
      observer.on(.error(RxError.disposed))
      return NopDisposable.shared
    }
    return subject.attach(observer)
  }

  /// Subscribes a C observer as an owned member of the subject (no subscription object):
  /// on a loan when this thread may borrow the subject, else on a reference of its own.
  @inline(__always)
  func attach(_ observer: CObserver) {
    if subject != nil {  // (not `if let`: that would copy it, a retain)
      if lender.lend(anchor: self) { return observer.attach(lentBy: self) }
      return attachOwning(observer)
    }
    guard let subject = currentDebugSubject else { return observer.on(.error(RxError.disposed)) }
    observer.attach(to: subject)
  }

  /// `attach`, for a token that holds a reference of its own to the subject.
  @inline(never)
  private func attachOwning(_ observer: CObserver) { observer.attach(to: subject.unsafelyUnwrapped) }

  // For tokens on a loan (the subject is there: never under RXC_DEBUG).

  @inline(__always)
  func attachOwned(_ observer: CObserver) {
    if let publish { return publish._withUnsafeGuaranteedRef { $0.attachOwned(observer) } }
    if let replay { return replay._withUnsafeGuaranteedRef { $0.attachOwned(observer) } }
    attachCall(observer)
  }

  @inline(__always)
  func detachOwned(_ observer: CObserver) {
    if let publish { return publish._withUnsafeGuaranteedRef { $0.detachOwned(observer) } }
    if let replay { return replay._withUnsafeGuaranteedRef { $0.detachOwned(observer) } }
    detachCall(observer)
  }

  /// A token's loan ends. True when the caller must then release this object (the anchor).
  @inline(__always)
  func giveBack() -> Bool { lender.giveBack() }
}
