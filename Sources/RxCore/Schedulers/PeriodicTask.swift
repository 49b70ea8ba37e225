/// Periodic work on any scheduler, as a chain of one-shot timers: the next run is scheduled
/// only after the current one returns (so runs never overlap), at start + n·period computed
/// from the scheduler's clock (so there is no drift). A run that comes late runs once, as
/// soon as it can; the ticks it missed are skipped, not queued.
final class PeriodicTask: Cancelable, @unchecked Sendable {
  private let scheduler: Scheduler
  private let start: Int64
  private let period: Int64
  /// Guarded by `lock` (held only to read or clear it: a CAS, where a Mutex took two calls
  /// into the futex word per tick); nil once disposed.
  private let lock = SpinLock()
  private var action: (() -> Void)?
  private let timer = SerialDisposable()
  private var tick: Int64 = 0  // touched only by the (non-overlapping) runs
  /// The one `NextRun` of this task, unretained: the scheduled closure owns it, and `arm`
  /// runs only while it is alive (in `start`, or inside its run).
  private var nextRun: Unmanaged<NextRun>?

  private init(scheduler: Scheduler, start: Int64, period: Int64, action: @escaping () -> Void) {
    self.scheduler = scheduler
    self.start = start
    self.period = period
    self.action = action
  }

  static func start(on scheduler: Scheduler, startAfter: Int64, period: Int64, _ action: @escaping () -> Void)
    -> PeriodicTask
  {
    let first = MonotonicClock.deadline(after: startAfter, from: scheduler.now)
    let task = PeriodicTask(scheduler: scheduler, start: first, period: Swift.max(1, period), action: action)
    let next = NextRun(task)
    task.nextRun = Unmanaged.passUnretained(next)
    task.arm(due: first)
    return task
  }

  var isDisposed: Bool { timer.isDisposed }

  private func arm(due: Int64) {
    let delay = due - scheduler.now
    guard let next = nextRun?.takeUnretainedValue() else { return }
    next.fired = false
    timer.setScheduled { scheduler.scheduleAfter(delay) { next.fire() } }
  }

  /// The next run, as its scheduler holds it (the closure's whole context: no allocation per
  /// tick). Each run re-arms it for the following one, so it goes only when the scheduler
  /// lets go of the last run it was given; if that run never ran (a closed run loop dropped
  /// it) the task ends: no run can follow, so the action (and its context) goes now.
  private final class NextRun {
    let task: PeriodicTask
    var fired = false
    init(_ task: PeriodicTask) { self.task = task }
    func fire() {
      fired = true
      task.fire()
    }
    deinit { if !fired { task.dispose() } }
  }

  private func fire() {
    lock.lock()
    let work = action
    lock.unlock()
    guard let work else { return }
    work()
    let now = scheduler.now
    var next = tick + 1
    // Latest tick already due: if we are past tick `next`, run once now as that tick.
    let late = now >= start ? (now - start) / period : -1
    if late > next { next = late }
    tick = next
    let (offset, o1) = next.multipliedReportingOverflow(by: period)
    let (due, o2) = start.addingReportingOverflow(offset)
    if o1 || o2 { return }
    arm(due: due)
  }

  func dispose() {
    lock.lock()
    let work = action.take()
    lock.unlock()
    timer.dispose()
    _ = work  // released here, outside the lock (a run in progress keeps its own reference)
  }
}
