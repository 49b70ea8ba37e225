/// When a buffer or a window closes (buffer's and window's timeSpan/count/scheduler): after
/// `count` elements, or `timeSpan` after it opened, whichever comes first. `count` nil is time
/// only; `timeSpan` nil is count only (no timer, no scheduler needed).
struct Windowing {
  let timeSpan: Int64?
  let count: Int?
  let scheduler: Scheduler?

  init(timeSpan: Int64?, count: Int?, scheduler: Scheduler?) {
    precondition(timeSpan != nil || count != nil, "a time span or a count is needed")
    precondition(timeSpan == nil || scheduler != nil, "a time span needs a scheduler")
    self.timeSpan = timeSpan.map { Swift.max(0, $0) }
    self.count = count
    self.scheduler = scheduler
  }

  /// Arms `timer` to run `tick` when a window opening now has lasted its time span (nothing
  /// for count only). `setScheduled` keeps a fast tick from being disposed by this call
  /// finishing late.
  func arm(_ timer: SerialDisposable, _ tick: @escaping () -> Void) {
    guard let span = timeSpan, let scheduler else { return }
    timer.setScheduled { scheduler.scheduleAfter(span, tick) }
  }
}
