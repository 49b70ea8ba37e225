import Synchronization

/// Only records that it was disposed.
public final class BooleanDisposable: Cancelable {
  private let disposed = Atomic<Bool>(false)
  public init() {}
  public var isDisposed: Bool { disposed.load(ordering: .acquiring) }
  public func dispose() { disposed.store(true, ordering: .releasing) }
}
