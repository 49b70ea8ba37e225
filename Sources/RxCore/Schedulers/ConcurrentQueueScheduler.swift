/// Runs actions on a concurrent queue: several may run at once (Dispatch; up to
/// `ownThreadLimit` threads of the library's own in a forked child, see WorkQueue).
public final class ConcurrentQueueScheduler: Scheduler, @unchecked Sendable {
  public static let ownThreadLimit = 64
  let queue: WorkQueue

  public init(label: String) {
    queue = WorkQueue(label: label, width: Self.ownThreadLimit)
    super.init()
  }

  public override func schedule(_ action: @escaping () -> Void) -> any Disposable {
    let item = ScheduledAction.make(action)
    queue.async { item.run() }
    return item
  }

  public override func scheduleAfter(_ delay: Int64, _ action: __owned @escaping () -> Void) -> any Disposable {
    if delay <= 0 { return schedule(action) }
    let item = ScheduledAction.make(consume action)
    Timers.schedule(item, after: delay, on: queue)
    return item
  }
}
