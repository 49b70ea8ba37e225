import CRxcCore
import Synchronization

/// One observer's subscription to a subject: the disposable `attach` returns. Disposing it
/// queues a removal through the subject's drain. The subject's slot refers to this object,
/// which holds the observer; `index` (the slot, for O(1) swap-removal) and `observer` are
/// only read and written by the draining thread, so they need no lock.
///
/// Not generic, and it reaches its subject through `detach`, a closure the subject made once
/// in its (specialized) initializer: so disposing runs specialized code, with no generic
/// metadata lookups, even though the C layer calls it through `any Disposable`.
@usableFromInline final class SubjectSubscription: Cancelable {
  public typealias Detach = (AnyObject, SubjectSubscription) -> Void

  /// Slot in the subject's observer list, or -1 when not in it. Drain-owned.
  @usableFromInline var index = -1
  /// The observer, retained while it is in the list. Drain-owned.
  @usableFromInline var observer: Unmanaged<AnyObject>?
  /// The observer `.next` goes to, unretained (`observer` keeps it alive): `observer`, or
  /// the one it passes elements on to unchanged (`Observer.nextTarget`). Drain-owned; set
  /// when listed, read only while listed.
  @usableFromInline var nextObserver: Unmanaged<AnyObject>?
  @usableFromInline let disposedFlag = Atomic<Bool>(false)
  /// Not a strong reference: a subject dropped without dispose must not be kept alive by
  /// its tokens. (Var: a spare is pointed at its next subject.)
  var owner: UnownedRef<AnyObject>
  var detach: Detach

  @usableFromInline init(owner: AnyObject, detach: @escaping Detach) {
    self.owner = UnownedRef(owner)
    self.detach = detach
    Resources.increment()
  }

  deinit { Resources.decrement() }

  /// A subscription to `owner`: this thread's spare if nothing else refers to it any more
  /// (see `park`), or a new one.
  @usableFromInline
  static func make(owner: AnyObject, detach: @escaping Detach) -> SubjectSubscription {
    guard let s = takeSpare() else { return SubjectSubscription(owner: owner, detach: detach) }
    // A spare still holds its last subject's unowned count and detach (a subject makes its
    // detach once): both kept when that subject is this one.
    if s.owner.pointer != Unmanaged.passUnretained(owner).toOpaque() {
      s.owner = UnownedRef(owner)
      s.detach = detach
    }
    s.disposedFlag.store(false, ordering: .relaxed)
    Resources.increment()
    return s
  }

  /// This thread's spare, taken if it is reusable: solely owned by the slot, strong, unowned
  /// or weak (`ThreadSpare.isSolelyOwned`). One someone still holds stays where it is.
  @inline(__always)
  private static func takeSpare() -> SubjectSubscription? {
    let kind = Int32(RXC_SPARE_SUBSCRIPTION)
    guard let p = rxc_core_spare_peek(kind) else { return nil }
    let spare = Unmanaged<SubjectSubscription>.fromOpaque(p)
    guard spare._withUnsafeGuaranteedRef({ ThreadSpare.isSolelyOwned($0) }) else { return nil }
    _ = rxc_core_spare_take(kind)
    return spare.takeRetainedValue()
  }

  /// The subject list's reference to `s`, which has just left the list (no index, no
  /// observer): moved into this thread's spare slot rather than released. Whoever holds `s`
  /// still (the caller `subscribe` returned it to, a SinkDisposer) lets go of it later with a
  /// release that frees nothing, and the next subscription made on this thread reuses it:
  /// a subscribe + dispose from Swift then allocates nothing, although its caller holds the
  /// subscription until after the dispose. A spare that nobody else holds stays in the slot (it
  /// is the one reusable now); one still held elsewhere makes way. One referred to weakly is
  /// released, so the weak reference sees it go. A spare does not count as a live object
  /// (whoever releases the slot's reference counts it back in first).
  @usableFromInline
  static func park(_ s: Unmanaged<SubjectSubscription>) {
    #if RXC_TSAN
      s.release()  // no reuse under TSan (see `ThreadSpare.isSolelyOwned`): nothing to park for
    #else
      if s._withUnsafeGuaranteedRef({ ThreadSpare.hasSideTable($0) }) { return s.release() }
      let kind = Int32(RXC_SPARE_SUBSCRIPTION)
      if let p = rxc_core_spare_peek(kind) {
        let old = Unmanaged<SubjectSubscription>.fromOpaque(p)
        if old._withUnsafeGuaranteedRef({ ThreadSpare.isSolelyOwned($0) }) { return s.release() }
        _ = rxc_core_spare_take(kind)
        Resources.increment()
        old.release()
      }
      Resources.decrement()
      let kept = ThreadSpare.keep(s.toOpaque(), Int(kind)) {
        Resources.increment()  // a thread's exit releases it: counted back in, as its deinit counts it out
        Unmanaged<SubjectSubscription>.fromOpaque($0!).release()
      }
      if !kept {
        Resources.increment()
        s.release()
      }
    #endif
  }

  @inlinable public var isDisposed: Bool { disposedFlag.load(ordering: .acquiring) }

  /// A load and a store, not an exchange: two disposes that race may both detach, and that
  /// is harmless (the second finds the slot gone: `index` is -1, and a queued op holds a
  /// reference of its own, so this object cannot be reused and listed again meanwhile). It
  /// saves a locked instruction per subscription.
  public func dispose() {
    if disposedFlag.load(ordering: .acquiring) { return }
    disposedFlag.store(true, ordering: .releasing)
    if let owner = owner.load() { detach(owner, self) }
  }
}
