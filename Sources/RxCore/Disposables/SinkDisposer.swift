import Synchronization

/// Disposes a producer's sink and its upstream subscription as one. Lock-free: `dispose` may
/// arrive before `run` has returned them, in which case they are disposed as soon as they
/// are set.
public final class SinkDisposer: Cancelable {
  private static let disposedBit = 1
  private static let setBit = 2
  private let state = Atomic<Int>(0)
  private var sink: (any Disposable)?
  private var subscription: (any Disposable)?

  public init() {}

  public var isDisposed: Bool { state.load(ordering: .acquiring) & Self.disposedBit != 0 }

  public func setSinkAndSubscription(sink: any Disposable, subscription: any Disposable) {
    self.sink = sink
    self.subscription = subscription
    let previous = state.bitwiseOr(Self.setBit, ordering: .acquiringAndReleasing).oldValue
    precondition(previous & Self.setBit == 0, "sink and subscription already set")
    if previous & Self.disposedBit != 0 {
      tearDown(sink: sink, subscription: subscription)
    }
  }

  public func dispose() {
    let previous = state.bitwiseOr(Self.disposedBit, ordering: .acquiringAndReleasing).oldValue
    if previous & Self.disposedBit != 0 { return }
    if previous & Self.setBit != 0, let sink, let subscription {
      tearDown(sink: sink, subscription: subscription)
    }
  }

  private func tearDown(sink: any Disposable, subscription: any Disposable) {
    sink.dispose()
    subscription.dispose()
    // Break the sink <-> disposer cycle; only the thread that won the state race gets here.
    self.sink = nil
    self.subscription = nil
  }
}
