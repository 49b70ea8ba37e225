/// Delayed work of the schedulers that have no clock loop of their own (the queue schedulers,
/// run loops' wake-ups, custom schedulers without `schedule_after`): the process's timer
/// thread (see TimerThread) hands each due action to its target.
enum Timers {
  /// Hands `action` to `target` once `delay` ns have passed. Disposing `action` before
  /// then takes it off the timer: it never reaches the target, and its memory goes at once.
  public static func schedule(_ action: ScheduledAction, after delay: Int64, on target: any TimerTarget) {
    let due = MonotonicClock.deadline(after: delay, from: MonotonicClock.now())
    TimerThread.forThisProcess().insert(action, due: due, target: target)
  }

  /// A target that runs the action on the timer thread itself: for an action that only
  /// hands work on.
  public static let inline: any TimerTarget = InlineTarget()

  final class InlineTarget: TimerTarget {
    func timerFired(_ action: ScheduledAction) { action.run() }
  }

  /// Timer entries of this process, disposed ones not yet swept included (tests).
  public static var pendingCount: Int { TimerThread.forThisProcess().count }
}
