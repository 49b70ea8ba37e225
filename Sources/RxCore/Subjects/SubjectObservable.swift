/// What a `SubjectObservable` and its members' ends need of a subject of `Value` (its
/// `attach` methods, public already). Public, not SPI: the subjects are public, and a public
/// type's conformance cannot be SPI.
public protocol MemberSubject: AnyObject {
  /// Subscribes through specialized code (`Observable.subscribe` is a generic vtable call).
  func attach(_ observer: Observer<Value>) -> any Disposable
  /// Subscribes an observer that is its own subscription (`SubjectMember.owned`).
  func attachOwned(_ observer: Observer<Value>)
  func detachOwned(_ observer: Observer<Value>)
}

extension PublishSubject: MemberSubject where Element == Value {}
extension ReplaySubject: MemberSubject where Element == Value {}
extension AsyncSubject: MemberSubject where Element == Value {}
extension BehaviorSubject: MemberSubject where Element == Value {}
extension PublishRelay: MemberSubject where Element == Value {}
extension ReplayRelay: MemberSubject where Element == Value {}
extension BehaviorRelay: MemberSubject where Element == Value {}

/// The observable side of a subject as the C layer hands it out (rx_subject_as_observable).
/// The subject lives as long as its owner (the C layer's subject handle), which calls
/// `detach()` when it goes; a caller that kept this observable past that sees what a
/// disposed subject gives late subscribers. Subscribing goes through
/// `MemberSubject.attach`, so it runs specialized code.
///
/// A strong reference, not a weak one: a weakly referenced object gets a side table, and
/// then every retain and release of the subject takes the slow path. It is a `let`, kept
/// for the whole life of this object (a disposed subject answers late subscribers itself),
/// so subscribing borrows it: no lock, no retain. Only when the owner keeps released
/// handles for ever (`holdsSubject` false: the C layer's RXC_DEBUG) is the subject held in
/// `debugSubject` instead, under a lock, and `detach` lets go of it.
///
/// An `ObserverEnd` subscribes as an owned member: on a loan (`SubjectLender`: this object
/// is the anchor that keeps the subject for the tokens of its owner thread) or on a
/// reference of its own (`ObserverEnd.attach(to:)`).
@_spi(RxC) public final class SubjectObservable: Observable<Value> {
  @usableFromInline let subject: (any MemberSubject)?
  /// `attachOwned`/`detachOwned` of `subject`, made for its concrete type: they reach it
  /// unretained (a call through the existential copies it first, a retain/release pair:
  /// two locked instructions per attach and per detach). `subject` keeps it alive.
  @usableFromInline let attachCall: (ObserverEnd) -> Void
  @usableFromInline let detachCall: (ObserverEnd) -> Void
  /// The same subject (or a relay's own) when it is a publish or a replay subject (the
  /// sorts whose subscribe + dispose `make bench` times, W4 and W7): called directly, no
  /// closure or witness call.
  @usableFromInline let publish: Unmanaged<PublishSubject<Value>>?
  @usableFromInline let replay: Unmanaged<ReplaySubject<Value>>?
  private let lock = SpinLock()
  private var debugSubject: (any MemberSubject)?
  /// Lends the subject to tokens made on one thread. Never when `holdsSubject` is false.
  @usableFromInline let lender = SubjectLender()

  public init(_ subject: any MemberSubject, publish: Unmanaged<PublishSubject<Value>>?,
              replay: Unmanaged<ReplaySubject<Value>>?, holdsSubject: Bool)
  {
    (attachCall, detachCall) = Self.calls(subject)
    if holdsSubject {
      self.subject = subject
      self.publish = publish
      self.replay = replay
      debugSubject = nil
    } else {
      self.subject = nil
      self.publish = nil
      self.replay = nil
      debugSubject = subject
    }
    super.init()
  }

  private static func calls<S: MemberSubject>(_ subject: S) -> ((ObserverEnd) -> Void, (ObserverEnd) -> Void) {
    let s = Unmanaged.passUnretained(subject)
    return ({ o in s._withUnsafeGuaranteedRef { $0.attachOwned(o) } },
            { o in s._withUnsafeGuaranteedRef { $0.detachOwned(o) } })
  }

  /// When the subject is not held: the subject, or nil once the owner let go.
  @usableFromInline var currentDebugSubject: (any MemberSubject)? {
    lock.lock()
    defer { lock.unlock() }
    return debugSubject
  }

  /// The owner went (after disposing the subject): no more loans, and when the subject is
  /// not held, lets go of it (this object may never be freed); otherwise the subject stays,
  /// disposed, until this goes.
  public func detach() {
    guard subject == nil else {
      if lender.close() { Unmanaged.passUnretained(self).release() }  // the owner still holds this
      return
    }
    lock.lock()
    let s = debugSubject
    debugSubject = nil
    lock.unlock()
    withExtendedLifetime(s) {}  // released after the lock
  }

  public override func subscribe(_ observer: Observer<Value>) -> any Disposable {
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

  /// Subscribes an end as an owned member of the subject (no subscription object): on a
  /// loan when this thread may borrow the subject, else on a reference of its own.
  @inlinable @inline(__always)
  public func attach(_ observer: ObserverEnd) {
    if subject != nil {  // (not `if let`: that would copy it, a retain)
      if lender.lend(anchor: self) { return observer.attach(lentBy: self) }
      return attachOwning(observer)
    }
    guard let subject = currentDebugSubject else { return observer.on(.error(RxError.disposed)) }
    observer.attach(to: subject)
  }

  /// `attach`, for an end that holds a reference of its own to the subject.
  @inline(never) @usableFromInline
  func attachOwning(_ observer: ObserverEnd) { observer.attach(to: subject.unsafelyUnwrapped) }

  // For ends on a loan (the subject is held).

  @inlinable @inline(__always)
  public func attachOwned(_ observer: ObserverEnd) {
    if let publish { return publish._withUnsafeGuaranteedRef { $0.attachOwned(observer) } }
    if let replay { return replay._withUnsafeGuaranteedRef { $0.attachOwned(observer) } }
    attachCall(observer)
  }

  @inlinable @inline(__always)
  public func detachOwned(_ observer: ObserverEnd) {
    if let publish { return publish._withUnsafeGuaranteedRef { $0.detachOwned(observer) } }
    if let replay { return replay._withUnsafeGuaranteedRef { $0.detachOwned(observer) } }
    detachCall(observer)
  }

  /// An end's loan ends: the last thing it does with the subject (this may free it).
  @inlinable @inline(__always)
  public static func giveBack(_ lender: Unmanaged<SubjectObservable>) {
    if lender._withUnsafeGuaranteedRef({ $0.lender.giveBack() }) { lender.release() }
  }
}
