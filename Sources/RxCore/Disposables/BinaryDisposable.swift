import Synchronization

/// Disposes two disposables once (the common case of a composite, without its lock).
public final class BinaryDisposable: Cancelable {
  private let disposed = Atomic<Bool>(false)
  private var first: (any Disposable)?
  private var second: (any Disposable)?

  public init(_ first: any Disposable, _ second: any Disposable) {
    self.first = first
    self.second = second
  }

  public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

  public func dispose() {
    if disposed.exchange(true, ordering: .acquiringAndReleasing) { return }
    let a = first, b = second
    first = nil
    second = nil
    a?.dispose()
    b?.dispose()
  }
}
