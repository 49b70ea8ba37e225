import CRxcCore
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

  /// A disposer for a new subscription: this thread's spare (see `recycle`), or a new one.
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

  /// The caller lets go of `disposable`, which it has disposed: if that is a disposer that
  /// has torn down and nothing else holds it, it is emptied and kept as this thread's spare
  /// (the next `make` takes it) instead of being freed. (A subject's subscription is kept by
  /// its subject when it leaves the list: `SubjectSubscription.park`.) Never under ThreadSanitizer (`RXC_TSAN`), which cannot see the
  /// Swift runtime's reference counts and would take the hand-over for a race.
  @inline(__always)
  public static func recycle(_ disposable: consuming any Disposable) {
    #if !RXC_TSAN
      // Moved, never copied: a copy would make the object look shared.
      if ThreadSpare.isKind(Int(RXC_SPARE_DISPOSER), disposable) {
        keepAsSpare(Self.move(consume disposable, to: SinkDisposer.self))
      }
    #endif
  }

  /// `object`'s reference, moved into a `T` (`unsafeDowncast` would copy it).
  @inline(__always)
  private static func move<T: AnyObject>(_ object: consuming any Disposable, to _: T.Type) -> T {
    Unmanaged<T>.fromOpaque(Unmanaged<AnyObject>.passRetained(consume object).toOpaque()).takeRetainedValue()
  }

  private static func keepAsSpare(_ disposer: consuming SinkDisposer) {
    guard ThreadSpare.isSolelyOwned(disposer) else { return }
    guard disposer.state.load(ordering: .relaxed) == disposedBit | setBit else { return }  // torn down: both slots empty
    disposer.state.store(0, ordering: .relaxed)
    let p = Unmanaged.passRetained(consume disposer).toOpaque()
    if !ThreadSpare.keep(p, Int(RXC_SPARE_DISPOSER), release: { Unmanaged<SinkDisposer>.fromOpaque($0!).release() }) {
      Unmanaged<SinkDisposer>.fromOpaque(p).release()
    }
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
    Self.recycle(consume subscription)  // an upstream operator's disposer, say
  }
}
