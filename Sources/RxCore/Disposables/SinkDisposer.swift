import Synchronization

/// Disposes a producer's sink and its upstream subscription as one. Lock-free: `dispose` may
/// arrive before `run` has returned them, in which case they are disposed as soon as they
/// are set.
///
/// Both are moved in (`consuming`) and moved out by the one thread that tears down, so a
/// subscription costs no retain/release pair here beyond the references themselves.
public final class SinkDisposer: Cancelable {
  private static let disposedBit = 1
  private static let setBit = 2
  private let state = Atomic<Int>(0)
  private var sink: (any Disposable)?
  private var subscription: (any Disposable)?

  public init() {}

  public var isDisposed: Bool { state.load(ordering: .acquiring) & Self.disposedBit != 0 }

  public func setSinkAndSubscription(sink: consuming any Disposable, subscription: consuming any Disposable) {
    self.sink = consume sink
    self.subscription = consume subscription
    let previous = state.bitwiseOr(Self.setBit, ordering: .acquiringAndReleasing).oldValue
    precondition(previous & Self.setBit == 0, "sink and subscription already set")
    if previous & Self.disposedBit != 0 { tearDown() }
  }

  public func dispose() {
    let previous = state.bitwiseOr(Self.disposedBit, ordering: .acquiringAndReleasing).oldValue
    if previous & Self.disposedBit != 0 { return }
    if previous & Self.setBit != 0 { tearDown() }
  }

  /// Only the thread that won the state race gets here. Taking both out also breaks the
  /// sink <-> disposer cycle.
  private func tearDown() {
    guard let sink = self.sink.take(), let subscription = self.subscription.take() else { return }
    sink.dispose()
    subscription.dispose()
  }
}
