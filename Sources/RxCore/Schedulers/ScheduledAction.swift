import CRxcCore
import Synchronization

/// One piece of scheduled work: runs at most once, never after it was disposed. Whoever wins
/// the state race owns the closure: the runner drops it after the run, a disposer that
/// comes first drops it at once, so captured context is freed exactly once, after the last
/// run or as soon as the action can no longer run.
@_spi(RxC) open class ScheduledAction: Cancelable, @unchecked Sendable {
  @usableFromInline static let runningBit = 1
  @usableFromInline static let doneBit = 2
  @usableFromInline let state = Atomic<Int>(0)
  @usableFromInline var action: (() -> Void)?
  /// The process timer this action waits on (see Timers), set before the action is handed
  /// out: a dispose tells it, so the timer lets go of the action at once.
  final var timer: TimerThread?

  public init(_ action: @escaping () -> Void) { self.action = action }

  /// An action for `action`: this thread's spare (one that ran or was disposed and that its
  /// last holder let go of through `recycle`), or a new one. For a scheduler that makes one
  /// per timer: a time operator re-arming its timer per event then allocates nothing.
  public static func make(_ action: __owned @escaping () -> Void) -> ScheduledAction {
    guard let spare = ThreadSpare.take(Int(RXC_SPARE_ACTION), as: ScheduledAction.self) else {
      let made = ScheduledAction(consume action)
      ThreadSpare.noteClass(Int(RXC_SPARE_ACTION), made)
      return made
    }
    spare.state.store(0, ordering: .relaxed)
    spare.action = consume action
    if spare.timer != nil { spare.timer = nil }  // it waited on a timer before
    return spare
  }

  /// A scheduler lets go of `action` after running it (or finding it disposed): kept as this
  /// thread's spare if nothing else holds it (see `Disposables.recycle`).
  public static func recycle(_ action: consuming ScheduledAction) {
    #if !RXC_TSAN
      if ThreadSpare.isKind(Int(RXC_SPARE_ACTION), action) { keepAsSpare(consume action) }
    #endif
  }

  /// Kept only when done (ran or disposed, so its closure is gone) and solely owned; a
  /// subclass never (its kind is the exact class).
  static func keepAsSpare(_ action: consuming ScheduledAction) {
    guard ThreadSpare.isSolelyOwned(action), action.state.load(ordering: .relaxed) == doneBit else { return }
    ThreadSpare.keepOrRelease(consume action, Int(RXC_SPARE_ACTION))
  }

  /// Disposed, or already ran.
  public final var isDisposed: Bool { state.load(ordering: .acquiring) & Self.doneBit != 0 }

  /// Runs the action unless it was disposed; false if it did not run.
  @discardableResult
  public final func run() -> Bool {
    guard state.compareExchange(expected: 0, desired: Self.runningBit, ordering: .acquiringAndReleasing).exchanged
    else { return false }
    // Moved out, not copied: a copy costs a retain and release of the closure's context.
    if let work = action.take() { work() }
    state.store(Self.doneBit, ordering: .releasing)
    return true
  }

  public final func dispose() {
    // Done is final while anyone can still dispose (a spare is reused only once solely
    // owned): a timer replaced after it ran, the usual case, costs no locked instruction.
    if state.load(ordering: .acquiring) & Self.doneBit != 0 { return }
    let old = state.bitwiseOr(Self.doneBit, ordering: .acquiringAndReleasing).oldValue
    if old != 0 { return }  // running or done: the runner owns the closure
    action = nil
    if let timer { timer.cancelled() }
    cancelled()
  }

  /// Called once when a dispose kept the action from ever running (for queue bookkeeping).
  open func cancelled() {}
}
