import Synchronization

/// Holds one disposable at a time; setting a new one disposes the previous one. Once
/// disposed, whatever is set is disposed at once.
public final class SerialDisposable: Cancelable {
  private struct State {
    var disposed = false
    var current: (any Disposable)?
  }
  private let state = Mutex(State())

  public init() {}

  public var isDisposed: Bool { state.withLock { $0.disposed } }

  public var disposable: (any Disposable)? {
    get { state.withLock { $0.current } }
    set { set(newValue) }
  }

  public func set(_ new: (any Disposable)?) {
    let (old, disposeNew): ((any Disposable)?, Bool) = state.withLock { s in
      if s.disposed { return (nil, true) }
      let old = s.current
      s.current = new
      return (old, false)
    }
    old?.dispose()
    if disposeNew { new?.dispose() }
  }

  public func dispose() {
    let old: (any Disposable)? = state.withLock { s in
      if s.disposed { return nil }
      s.disposed = true
      let old = s.current
      s.current = nil
      return old
    }
    old?.dispose()
  }
}
