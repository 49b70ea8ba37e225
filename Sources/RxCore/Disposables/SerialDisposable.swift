/// Holds one disposable at a time; setting a new one disposes the previous one. Once
/// disposed, whatever is set is disposed at once.
public final class SerialDisposable: Cancelable {
  // Guarded by `lock` (a swap of one reference: no allocation, unlike a Mutex). Disposing
  // happens outside it.
  private let lock = SpinLock()
  private var disposed = false
  private var current: (any Disposable)?

  public init() {}

  public var isDisposed: Bool {
    lock.lock()
    defer { lock.unlock() }
    return disposed
  }

  public var disposable: (any Disposable)? {
    get {
      lock.lock()
      defer { lock.unlock() }
      return current
    }
    set { set(newValue) }
  }

  public func set(_ new: (any Disposable)?) {
    lock.lock()
    if disposed {
      lock.unlock()
      new?.dispose()
      return
    }
    let old = current.take()
    current = new
    lock.unlock()
    guard let old = consume old else { return }
    old.dispose()
  }

  public func dispose() {
    lock.lock()
    if disposed {
      lock.unlock()
      return
    }
    disposed = true
    let old = current.take()
    lock.unlock()
    guard let old = consume old else { return }  // (not `old?.dispose()`: that retains and releases it around the call)
    old.dispose()
  }
}
