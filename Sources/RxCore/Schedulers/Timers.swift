import CRxcCore
import Dispatch

/// Calls a short block once a delay has passed, on a library thread: a Dispatch timer in
/// the process that loaded the library; in a forked child (where libdispatch no longer
/// runs anything) a timer thread of its own, started on first use and ended when idle.
/// Blocks must only hand work on (to a queue or a loop), never run it.
public enum Timers {
  public static func after(_ delay: Int64, _ block: @escaping () -> Void) {
    if rxc_fork_generation() == 0 {
      DispatchQueue.global().asyncAfter(deadline: dispatchDeadline(delay), execute: block)
    } else {
      TimerThread.forThisProcess().insert(block, due: MonotonicClock.deadline(after: delay, from: MonotonicClock.now()))
    }
  }

  /// `now + delay` for Dispatch, with the delay clamped to something Dispatch accepts.
  static func dispatchDeadline(_ delay: Int64) -> DispatchTime {
    .now() + .nanoseconds(Int(Swift.min(Swift.max(0, delay), 100 * 365 * 86_400 * 1_000_000_000)))
  }
}
