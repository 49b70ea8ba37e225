import Synchronization

/// Runs an action once, on the first dispose, outside any lock.
@_spi(RxC) public final class AnonymousDisposable: Cancelable {
  private let disposed = Atomic<Bool>(false)
  private var action: (() -> Void)?

  public init(_ action: @escaping () -> Void) { self.action = action }

  public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

  public func dispose() {
    if disposed.exchange(true, ordering: .acquiringAndReleasing) { return }
    let action = self.action
    self.action = nil
    action?()
  }
}
