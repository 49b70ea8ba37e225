import Dispatch

/// Runs actions on a concurrent Dispatch queue: several may run at once.
public final class ConcurrentQueueScheduler: Scheduler, @unchecked Sendable {
  public let queue: DispatchQueue

  public init(label: String) {
    queue = DispatchQueue(label: label, attributes: .concurrent)
    super.init()
  }

  public override func schedule(_ action: @escaping () -> Void) -> any Disposable {
    let item = ScheduledAction(action)
    queue.async { item.run() }
    return item
  }

  public override func scheduleAfter(_ delay: Int64, _ action: @escaping () -> Void) -> any Disposable {
    if delay <= 0 { return schedule(action) }
    let item = ScheduledAction(action)
    queue.asyncAfter(deadline: .after(delay)) { item.run() }
    return item
  }
}
