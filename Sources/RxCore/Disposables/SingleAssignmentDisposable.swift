/// Accepts exactly one disposable. Set and dispose may race; whichever comes second does
/// the disposing (outside the lock).
public final class SingleAssignmentDisposable: Cancelable {
  // Guarded by `lock` (a swap of one reference: no allocation, unlike a Mutex).
  private let lock = SpinLock()
  private var disposed = false
  private var set = false
  private var inner: (any Disposable)?

  public init() {}

  public var isDisposed: Bool {
    lock.lock()
    defer { lock.unlock() }
    return disposed
  }

  /// False (and nothing taken) if a disposable was already set.
  @discardableResult
  public func trySet(_ disposable: any Disposable) -> Bool {
    lock.lock()
    if set {
      lock.unlock()
      return false
    }
    set = true
    let disposeNow = disposed
    if !disposeNow { inner = disposable }
    lock.unlock()
    if disposeNow { disposable.dispose() }
    return true
  }

  public func setDisposable(_ disposable: any Disposable) {
    let ok = trySet(disposable)
    precondition(ok, "SingleAssignmentDisposable set twice")
  }

  public func dispose() {
    // (Not `d?.dispose()`: that retains and releases it around the call.)
    guard let d = lock.disposeOnce(&disposed, &inner) else { return }
    d.dispose()
    Disposables.recycle(consume d)
  }
}
