import Synchronization

/// An inner observer that is also the disposable of its own subscription (one object, no
/// SingleAssignmentDisposable next to it): `attach` and `dispose` may race; whichever comes
/// second disposes the subscription.
class SubscribedObserver<Element>: Observer<Element>, Disposable {
  private let subscription = Mutex<(disposed: Bool, inner: (any Disposable)?)>((false, nil))

  /// Called once, with what `subscribe` returned.
  final func attach(_ d: any Disposable) {
    let disposeNow = subscription.withLock { s in
      if s.disposed { return true }
      s.inner = d
      return false
    }
    if disposeNow { d.dispose() }
  }

  final func dispose() {
    let d: (any Disposable)? = subscription.withLock { s in
      if s.disposed { return nil }
      s.disposed = true
      let d = s.inner
      s.inner = nil
      return d
    }
    d?.dispose()
  }
}
