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

  /// What a sink needs to arm its per-window timer; nil for count only.
  var timer: WindowTimer? {
    guard let timeSpan, let scheduler else { return nil }
    return WindowTimer(span: timeSpan, scheduler: Unmanaged.passUnretained(scheduler))
  }
}

/// A windowing's time span and scheduler, kept by the sink that arms the timer. The scheduler
/// is unretained: the sink holds its producer, which holds the scheduler (read through the
/// producer, it was retained and released per window).
struct WindowTimer {
  let span: Int64
  let scheduler: Unmanaged<Scheduler>

  /// Arms `timer` to run `tick` when a window opening now has lasted the span. The slot is
  /// reserved before scheduling, so that a fast tick is not disposed by this call finishing
  /// late; `tick` goes to the scheduler as it is (owned: no retain of its context).
  @inline(__always) func arm(_ timer: SerialDisposable, _ tick: __owned @escaping () -> Void) {
    let ticket = timer.reserve()
    timer.fill(scheduler._withUnsafeGuaranteedRef { $0.scheduleAfter(span, tick) }, ticket: ticket)
  }
}

/// buffer's and window's producer: the source, when a chunk (a buffer's array, a window's
/// observable) closes, and how a closed chunk becomes an element.
class WindowingProducer<Element, Chunk, Output>: Producer<Output> {
  let source: Observable<Element>
  let windowing: Windowing
  let make: (Chunk) -> Output

  init(source: Observable<Element>, timeSpan: Int64?, count: Int?, scheduler: Scheduler?,
       make: @escaping (Chunk) -> Output)
  {
    self.source = source
    self.windowing = Windowing(timeSpan: timeSpan, count: count, scheduler: scheduler)
    self.make = make
  }
}
