import Synchronization

/// Runs at most `maxConcurrent` actions at once, in FIFO order of submission (delayed work
/// joins the queue when it is due). Workers are Dispatch blocks that keep taking queued
/// actions until none are left, so the limit holds without a semaphore per action. In a
/// forked child the queue's own pool of `maxConcurrent` threads keeps order and limit
/// itself (the count of running workers is the parent's there, so it is not used).
public final class OperationQueueScheduler: Scheduler, TimerTarget, @unchecked Sendable {
  public let maxConcurrent: Int
  private let queue: WorkQueue
  private let state = Mutex(Admission(waiting: RingBuffer<ScheduledAction>()))

  public init(label: String, maxConcurrent: Int) {
    self.maxConcurrent = Swift.max(1, maxConcurrent)
    queue = WorkQueue(label: label, width: self.maxConcurrent)
    super.init()
  }

  public override var isSerial: Bool { maxConcurrent == 1 }

  public override func schedule(_ action: @escaping () -> Void) -> any Disposable {
    let item = ScheduledAction.make(action)
    submit(item)
    return item
  }

  public override func scheduleAfter(_ delay: Int64, _ action: __owned @escaping () -> Void) -> any Disposable {
    if delay <= 0 { return schedule(action) }
    let item = ScheduledAction.make(consume action)
    Timers.schedule(item, after: delay, on: self)
    return item
  }

  /// A delayed action joins the queue when it is due.
  func timerFired(_ action: ScheduledAction) {
    if !action.isDisposed { submit(action) }
  }

  private func submit(_ item: ScheduledAction) {
    if queue.usesOwnThreads { return queue.async { item.run() } }
    if state.withLock({ $0.admit(item, limit: maxConcurrent) }) { queue.async { [self] in work(first: item) } }
  }

  private func work(first: ScheduledAction) {
    var item: ScheduledAction? = first
    while let current = item {
      current.run()
      item = state.withLock { s -> ScheduledAction? in
        if let next = s.waiting.popFirst() { return next }
        s.free()
        return nil
      }
    }
  }
}
