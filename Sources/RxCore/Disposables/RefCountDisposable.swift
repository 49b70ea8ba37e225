import Synchronization

/// Disposes its underlying disposable only once it was disposed itself (the primary owner
/// let go) and every dependent handed out by `retain()` was disposed too (RxSwift's
/// `RefCountDisposable`). groupBy and window use it so that the source subscription outlives
/// the outer subscription while any group or window is subscribed.
///
/// The underlying disposable is disposed outside the lock, once, on the thread whose
/// dispose brought the count to zero.
public final class RefCountDisposable: Cancelable {
  private struct State {
    var underlying: (any Disposable)?
    var primaryDisposed = false
    var count = 0
  }
  private let state: Mutex<State>
  /// Set once the underlying disposable was taken for disposal: a lock-free `isDisposed`,
  /// read per event by groupBy.
  private let released = Atomic<Bool>(false)
  /// `count`, readable without the lock.
  private let dependents = Atomic<Int>(0)

  public init(_ underlying: any Disposable) {
    state = Mutex(State(underlying: underlying))
  }

  /// True once the underlying disposable was disposed (or is being disposed).
  public var isDisposed: Bool { released.load(ordering: .acquiring) }

  /// True while a dependent from `retain()` is not disposed.
  public var hasDependents: Bool { dependents.load(ordering: .acquiring) > 0 }

  /// A dependent that holds the underlying disposable alive until it is disposed; once the
  /// underlying one is gone, a disposable that does nothing.
  public func retain() -> any Disposable {
    let live = state.withLock { s -> Bool in
      if s.underlying == nil { return false }
      s.count += 1
      dependents.store(s.count, ordering: .releasing)
      return true
    }
    return live ? Dependent(self) : Disposables.create()
  }

  /// The primary owner lets go: disposes the underlying disposable now if no dependent is
  /// left, else when the last one is disposed.
  public func dispose() {
    SynchronousStop.noteStop()  // a window or group may stop wanting events
    let taken: (any Disposable)? = state.withLock { s in
      if s.primaryDisposed { return nil }
      s.primaryDisposed = true
      return s.count == 0 ? take(&s) : nil
    }
    if let taken = consume taken { taken.dispose() }  // (`?.dispose()` retains around the call)
  }

  fileprivate func release() {
    SynchronousStop.noteStop()  // a group by may stop wanting events
    let taken: (any Disposable)? = state.withLock { s in
      if s.underlying == nil { return nil }
      s.count -= 1
      precondition(s.count >= 0, "RefCountDisposable released more often than retained")
      dependents.store(s.count, ordering: .releasing)
      return s.primaryDisposed && s.count == 0 ? take(&s) : nil
    }
    if let taken = consume taken { taken.dispose() }  // (`?.dispose()` retains around the call)
  }

  private func take(_ s: inout State) -> (any Disposable)? {
    let d = s.underlying
    s.underlying = nil
    released.store(true, ordering: .releasing)
    return d
  }

  /// One `retain()`: its dispose gives the reference back, once.
  private final class Dependent: Disposable {
    private let parent: RefCountDisposable
    private let disposed = Atomic<Bool>(false)

    init(_ parent: RefCountDisposable) {
      self.parent = parent
      Resources.increment()
    }

    deinit { Resources.decrement() }

    func dispose() {
      if disposed.exchange(true, ordering: .acquiringAndReleasing) { return }
      parent.release()
    }
  }
}
