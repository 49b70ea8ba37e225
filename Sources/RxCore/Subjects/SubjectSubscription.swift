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
  /// its tokens.
  @usableFromInline let owner: UnownedRef<AnyObject>
  @usableFromInline let detach: Detach

  @inlinable init(owner: AnyObject, detach: @escaping Detach) {
    self.owner = UnownedRef(owner)
    self.detach = detach
    Resources.increment()
  }

  deinit { Resources.decrement() }

  @inlinable public var isDisposed: Bool { disposedFlag.load(ordering: .acquiring) }

  public func dispose() {
    if disposedFlag.exchange(true, ordering: .acquiringAndReleasing) { return }
    if let owner = owner.load() { detach(owner, self) }
  }
}
