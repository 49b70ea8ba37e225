/// Accepts exactly one disposable. Set and dispose may race; whichever comes second does
/// the disposing (outside the lock).
public final class SingleAssignmentDisposable: Cancelable {
  // Guarded by `lock` (a swap of one reference: no allocation, unlike a Mutex).
  private let lock = SpinLock()
  private var slot = DisposableSlot()
  private var set = false

  public init() {}

  public var isDisposed: Bool {
    lock.lock()
    defer { lock.unlock() }
    return slot.disposed
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
    let disposeNow = slot.disposed
    if !disposeNow { slot.held = disposable }
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
    lock.lock()
    let d = slot.disposeOnce()
    lock.unlock()
    guard let d else { return }
    d.dispose()
    Disposables.recycle(consume d)
  }
}
