import Glibc

/// Decides on which thread, and when, work runs. Times are monotonic nanoseconds.
///
/// Subclasses implement `scheduleAfter` (and usually `schedule`); periodic work is built on
/// top of `scheduleAfter` by `PeriodicTask`, so every scheduler gets drift-free,
/// non-overlapping periodic runs for free.
open class Scheduler: @unchecked Sendable {
  public init() {}

  /// The scheduler's clock (virtual time for a test scheduler).
  open var now: Int64 { MonotonicClock.now() }

  /// True if it never runs two actions at once and runs them in order.
  open var isSerial: Bool { false }

  /// False for schedulers that can only wait by blocking the caller (immediate,
  /// current-thread): periodic work on them would never return.
  open var supportsPeriodic: Bool { true }

  /// Runs `action` as soon as the scheduler can. Disposing the result before the action
  /// starts keeps it from running and releases it.
  open func schedule(_ action: @escaping () -> Void) -> any Disposable {
    scheduleAfter(0, action)
  }

  /// For an owner that schedules the same work again and again, never two runs pending at
  /// once (observe_on's drain): a trigger that schedules `action` each time it fires,
  /// without allocating per fire, or nil if this scheduler has no such path (use `schedule`).
  /// Its runs cannot be cancelled: the action checks for itself whether work is left, and
  /// the owner keeps the trigger and its action alive until every pending run has started.
  func makeTrigger(_ action: TriggeredAction) -> SchedulerTrigger? { nil }

  /// True when `schedule` called now, on this thread, would run its action at once, before
  /// it returns (immediate; current-thread outside a trampoline). A source that schedules
  /// one step per element asks it instead of scheduling a step that runs inline
  /// (`RecursiveScheduling`). False when unknown.
  open var runsActionsInlineNow: Bool { false }

  /// Runs `action` once, `delay` ns from now (negative is zero). The closure is taken owned:
  /// a caller that made it (a time operator arming its timer) hands its context over, with
  /// no retain and release of it around the call.
  open func scheduleAfter(_ delay: Int64, _ action: __owned @escaping () -> Void) -> any Disposable {
    preconditionFailure("Scheduler.scheduleAfter is abstract")
  }

  /// Runs `action` at start + n·period (n = 0, 1, ...), never two runs at once; a late run
  /// runs once as soon as it can and later ticks stay on the grid.
  open func schedulePeriodic(startAfter: Int64, period: Int64, _ action: @escaping () -> Void)
    -> any Disposable
  {
    PeriodicTask.start(on: self, startAfter: startAfter, period: period, action)
  }
}

/// CLOCK_MONOTONIC in nanoseconds, and sleeping against it.
public enum MonotonicClock {
  @inlinable public static func now() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) &* 1_000_000_000 &+ Int64(ts.tv_nsec)
  }

  /// Sleeps until `deadline` (restarting on EINTR).
  public static func sleep(until deadline: Int64) {
    while true {
      let left = deadline - now()
      if left <= 0 { return }
      var ts = timespec(tv_sec: Int(left / 1_000_000_000), tv_nsec: Int(left % 1_000_000_000))
      _ = nanosleep(&ts, nil)
    }
  }

  /// `now + delay`, saturating instead of overflowing.
  @inlinable public static func deadline(after delay: Int64, from base: Int64) -> Int64 {
    let d = Swift.max(0, delay)
    let (sum, overflow) = base.addingReportingOverflow(d)
    return overflow ? Int64.max : sum
  }
}
