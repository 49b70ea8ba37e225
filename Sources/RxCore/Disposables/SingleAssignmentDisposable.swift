import Synchronization

/// Accepts exactly one disposable. Set and dispose may race; whichever comes second does
/// the disposing (outside the lock).
public final class SingleAssignmentDisposable: Cancelable {
  private struct State {
    var disposed = false
    var set = false
    var inner: (any Disposable)?
  }
  private let state = Mutex(State())

  public init() {}

  public var isDisposed: Bool { state.withLock { $0.disposed } }

  /// False (and nothing taken) if a disposable was already set.
  @discardableResult
  public func trySet(_ disposable: any Disposable) -> Bool {
    let (accepted, disposeNow): (Bool, Bool) = state.withLock { s in
      if s.set { return (false, false) }
      s.set = true
      if s.disposed { return (true, true) }
      s.inner = disposable
      return (true, false)
    }
    if disposeNow { disposable.dispose() }
    return accepted
  }

  public func setDisposable(_ disposable: any Disposable) {
    let ok = trySet(disposable)
    precondition(ok, "SingleAssignmentDisposable set twice")
  }

  public func dispose() {
    let inner: (any Disposable)? = state.withLock { s in
      if s.disposed { return nil }
      s.disposed = true
      let d = s.inner
      s.inner = nil
      return d
    }
    inner?.dispose()
  }
}
