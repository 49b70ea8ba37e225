/// Runs actions one at a time, in order, on a private serial queue (Dispatch; the
/// library's own thread in a forked child, see WorkQueue).
public final class SerialQueueScheduler: Scheduler, @unchecked Sendable {
  let queue: WorkQueue

  public init(label: String) {
    queue = WorkQueue(label: label, width: 1)
    super.init()
  }

  public override var isSerial: Bool { true }

  public override func schedule(_ action: @escaping () -> Void) -> any Disposable {
    let item = ScheduledAction.make(action)
    queue.async { item.run() }
    return item
  }

  override func makeTrigger(_ action: TriggeredAction) -> SchedulerTrigger? { QueueTrigger(action, queue) }

  /// The block is made once: Dispatch then only retains it per run (allocating nothing but
  /// its own queue item), where `schedule` wraps every run in new closures and a block.
  final class QueueTrigger: SchedulerTrigger {
    let queue: WorkQueue
    let block: @convention(block) () -> Void

    init(_ action: TriggeredAction, _ queue: WorkQueue) {
      self.queue = queue
      block = { action.run() }
      super.init(action)
    }

    override func fire() { queue.asyncReusing(block) }
  }

  public override func scheduleAfter(_ delay: Int64, _ action: __owned @escaping () -> Void) -> any Disposable {
    if delay <= 0 { return schedule(action) }
    let item = ScheduledAction.make(consume action)
    Timers.schedule(item, after: delay, on: queue)
    return item
  }
}
