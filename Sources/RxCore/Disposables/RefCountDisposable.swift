import Synchronization

/// Disposes `underlying` once its primary reference is disposed and every reference taken
/// by `retain` is disposed too (RxSwift's RefCountDisposable): a window keeps its source's
/// subscription alive while anyone still listens to it, after the outer subscription ended.
public final class RefCountDisposable: Cancelable {
  private struct State {
    var underlying: (any Disposable)?
    var count = 0
    var primaryDisposed = false
  }

  private let state: Mutex<State>
  private let done = Atomic<Bool>(false)

  public init(_ underlying: any Disposable) { state = Mutex(State(underlying: underlying)) }

  /// Whether `underlying` has been disposed.
  public var isDisposed: Bool { done.load(ordering: .acquiring) }

  /// A reference that keeps `underlying` alive until it is disposed (a no-op disposable once
  /// `underlying` is gone).
  public func retain() -> any Disposable {
    let taken = state.withLock { s -> Bool in
      if s.underlying == nil { return false }
      s.count += 1
      return true
    }
    return taken ? Reference(self) : NopDisposable.shared
  }

  /// Disposes the primary reference.
  public func dispose() {
    let d: (any Disposable)? = state.withLock { s in
      if s.underlying == nil || s.primaryDisposed { return nil }
      s.primaryDisposed = true
      return s.count == 0 ? take(&s) : nil
    }
    d?.dispose()
  }

  private func release() {
    let d: (any Disposable)? = state.withLock { s in
      if s.underlying == nil { return nil }
      s.count -= 1
      return s.primaryDisposed && s.count == 0 ? take(&s) : nil
    }
    d?.dispose()
  }

  private func take(_ s: inout State) -> (any Disposable)? {
    let d = s.underlying
    s.underlying = nil
    done.store(true, ordering: .releasing)
    return d
  }

  /// One reference from `retain`: releases it once.
  private final class Reference: Disposable {
    private let parent: RefCountDisposable
    private let disposed = Atomic<Bool>(false)
    init(_ parent: RefCountDisposable) { self.parent = parent }
    func dispose() {
      if disposed.exchange(true, ordering: .acquiringAndReleasing) { return }
      parent.release()
    }
  }
}
