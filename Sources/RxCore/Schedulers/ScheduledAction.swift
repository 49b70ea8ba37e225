import Synchronization

/// One piece of scheduled work: runs at most once, never after it was disposed. Whoever wins
/// the state race owns the closure: the runner drops it after the run, a disposer that
/// comes first drops it at once, so captured context is freed exactly once, after the last
/// run or as soon as the action can no longer run.
open class ScheduledAction: Cancelable, @unchecked Sendable {
  @usableFromInline static let runningBit = 1
  @usableFromInline static let doneBit = 2
  @usableFromInline let state = Atomic<Int>(0)
  @usableFromInline var action: (() -> Void)?

  public init(_ action: @escaping () -> Void) { self.action = action }

  /// Disposed, or already ran.
  public final var isDisposed: Bool { state.load(ordering: .acquiring) & Self.doneBit != 0 }

  /// Runs the action unless it was disposed; false if it did not run.
  @discardableResult
  public final func run() -> Bool {
    guard state.compareExchange(expected: 0, desired: Self.runningBit, ordering: .acquiringAndReleasing).exchanged
    else { return false }
    let work = action
    action = nil
    work?()
    state.store(Self.doneBit, ordering: .releasing)
    return true
  }

  public final func dispose() {
    let old = state.bitwiseOr(Self.doneBit, ordering: .acquiringAndReleasing).oldValue
    if old != 0 { return }  // running or done: the runner owns the closure
    action = nil
    cancelled()
  }

  /// Called once when a dispose kept the action from ever running (for queue bookkeeping).
  open func cancelled() {}
}
