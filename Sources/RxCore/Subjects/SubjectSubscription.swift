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
public final class SubjectSubscription: Cancelable {
  public typealias Detach = (AnyObject, SubjectSubscription) -> Void

  /// Slot in the subject's observer list, or -1 when not in it. Drain-owned.
  @usableFromInline var index = -1
  /// The observer, retained while it is in the list. Drain-owned.
  @usableFromInline var observer: Unmanaged<AnyObject>?
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

  /// A subscription to `owner`: this thread's spare (see `keepAsSpare`), or a new one.
  @usableFromInline
  static func make(owner: AnyObject, detach: @escaping Detach) -> SubjectSubscription {
    guard let s = ThreadSpare.take(Int(RXC_SPARE_SUBSCRIPTION), as: SubjectSubscription.self) else {
      let s = SubjectSubscription(owner: owner, detach: detach)
      ThreadSpare.noteClass(Int(RXC_SPARE_SUBSCRIPTION), s)
      return s
    }
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

  /// `SinkDisposer.recycle` of a subscription: kept as this thread's spare if it was
  /// disposed, has left its subject's list and nothing else refers to it (not the list, not
  /// a queued removal, not a user's weak reference: `ThreadSpare.isSolelyOwned`). A spare
  /// does not count as a live object.
  static func keepAsSpare(_ s: consuming SubjectSubscription) {
    guard ThreadSpare.isSolelyOwned(s) else { return }
    guard s.disposedFlag.load(ordering: .relaxed), s.index < 0, s.observer == nil else { return }
    let p = Unmanaged.passRetained(consume s).toOpaque()
    let kept = ThreadSpare.keep(p, Int(RXC_SPARE_SUBSCRIPTION)) {
      Resources.increment()  // its deinit counts it out
      Unmanaged<SubjectSubscription>.fromOpaque($0!).release()
    }
    if kept { Resources.decrement() } else { Unmanaged<SubjectSubscription>.fromOpaque(p).release() }
  }

  @inlinable public var isDisposed: Bool { disposedFlag.load(ordering: .acquiring) }

  public func dispose() {
    if disposedFlag.exchange(true, ordering: .acquiringAndReleasing) { return }
    if let owner = owner.load() { detach(owner, self) }
  }
}
