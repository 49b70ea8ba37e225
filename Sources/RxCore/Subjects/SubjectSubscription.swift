import Synchronization

/// One observer's subscription to a subject: the disposable `subscribe` returns. Disposing it
/// queues a removal through the subject's drain; `index` (the observer's slot, for O(1)
/// swap-removal) is only read and written by the draining thread, so it needs no lock.
public final class SubjectSubscription<Element>: Cancelable {
  /// Slot in the subject's observer list, or -1 when not in it. Drain-owned.
  @usableFromInline var index = -1
  @usableFromInline let disposedFlag = Atomic<Bool>(false)
  /// Weak: a subject dropped without dispose must not be kept alive by its tokens.
  @usableFromInline weak var owner: (any SubjectUnsubscribing<Element>)?

  @usableFromInline init(owner: any SubjectUnsubscribing<Element>) {
    self.owner = owner
    Resources.increment()
  }

  deinit { Resources.decrement() }

  @inlinable public var isDisposed: Bool { disposedFlag.load(ordering: .acquiring) }

  public func dispose() {
    if disposedFlag.exchange(true, ordering: .acquiringAndReleasing) { return }
    owner?.unsubscribe(self)
  }
}
