import Synchronization

/// Disposes two disposables once (the common case of a composite, without its lock).
final class BinaryDisposable: Cancelable {
  private let disposed = Atomic<Bool>(false)
  private var first: (any Disposable)?
  private var second: (any Disposable)?

  public init(_ first: consuming any Disposable, _ second: consuming any Disposable) {
    self.first = consume first
    self.second = consume second
  }

  public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

  public func dispose() {
    if disposed.exchange(true, ordering: .acquiringAndReleasing) { return }
    // Moved out (no retain/release pair each); only the winner of `disposed` gets here.
    guard let a = first.take(), let b = second.take() else { return }
    a.dispose()
    b.dispose()
    Disposables.recycle(consume a)
    Disposables.recycle(consume b)
  }
}
