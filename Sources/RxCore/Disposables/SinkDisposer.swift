import CRxcCore
import Synchronization

/// Disposes a producer's sink and its upstream subscription as one. Lock-free: `dispose` may
/// arrive before `run` has returned them, in which case they are disposed as soon as they
/// are set.
///
/// Both are moved in (`consuming`) and moved out by the one thread that tears down, so a
/// subscription costs no retain/release pair here beyond the references themselves.
@usableFromInline final class SinkDisposer: Cancelable {
  private static let disposedBit = 1
  private static let setBit = 2
  private let state = Atomic<Int>(0)
  private var sink: (any Disposable)?
  private var subscription: (any Disposable)?

  public init() {}

  /// A disposer for a new subscription: this thread's spare (see `Disposables.recycle`), or a new one.
  public static func make() -> SinkDisposer {
    if let spare = ThreadSpare.take(Int(RXC_SPARE_DISPOSER), as: SinkDisposer.self) { return spare }
    let disposer = SinkDisposer()
    ThreadSpare.noteClass(Int(RXC_SPARE_DISPOSER), disposer)
    return disposer
  }

  /// A subscription under a disposer of this thread's (`make`): `run` makes the sink and
  /// subscription with it as their `cancel`, and the disposer that holds them is returned.
  /// The disposer is moved into the existential `run` borrows, and reached unretained
  /// besides: converting a disposer kept aside costs a retain and release per subscribe.
  @inlinable @inline(__always)
  public static func subscribe(
    _ run: (any Cancelable) -> (sink: any Disposable, subscription: any Disposable)
  ) -> any Disposable {
    let made = make()
    let disposer = Unmanaged.passUnretained(made)
    let cancel: any Cancelable = consume made
    let (sink, subscription) = run(cancel)
    disposer._withUnsafeGuaranteedRef {
      $0.setSinkAndSubscription(sink: consume sink, subscription: consume subscription)  // moved: no retain/release pair
    }
    return cancel
  }

  /// A disposer that has torn down and that nothing else holds: emptied and kept as this
  /// thread's spare (the next `make` takes it) instead of being freed (see
  /// `Disposables.recycle`).
  static func keepAsSpare(_ disposer: consuming SinkDisposer) {
    guard ThreadSpare.isSolelyOwned(disposer) else { return }
    guard disposer.state.load(ordering: .relaxed) == disposedBit | setBit else { return }  // torn down: both slots empty
    disposer.state.store(0, ordering: .relaxed)
    ThreadSpare.keepOrRelease(consume disposer, Int(RXC_SPARE_DISPOSER))
  }

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
  @inline(never)  // kept out of `dispose`, so that `dispose` inlines where it is called
  private func tearDown() {
    guard let sink = self.sink.take(), let subscription = self.subscription.take() else { return }
    sink.dispose()
    subscription.dispose()
    Disposables.recycle(consume subscription)  // an upstream operator's disposer, say
  }
}
