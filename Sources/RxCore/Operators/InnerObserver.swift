import Synchronization

/// An inner observer that is also the disposable of its own subscription (one object, no
/// SingleAssignmentDisposable next to it): `attach` and `dispose` may race; whichever comes
/// second disposes the subscription.
class SubscribedObserver<Element>: Observer<Element>, Disposable {
  // Guarded by `lock` (a swap of one reference: no allocation, unlike a Mutex).
  private let lock = SpinLock()
  private var slot = DisposableSlot()

  /// Called once, with what `subscribe` returned.
  final func attach(_ d: any Disposable) {
    lock.lock()
    let disposeNow = slot.disposed
    if !disposeNow { slot.held = d }
    lock.unlock()
    if disposeNow { d.dispose() }
  }

  final func dispose() {
    // (Not `d?.dispose()`: that retains and releases it around the call.)
    lock.lock()
    let d = slot.disposeOnce()
    lock.unlock()
    if let d { d.dispose() }
  }
}
