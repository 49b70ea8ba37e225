import CRxcCore
import Dispatch
import Synchronization

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

/// The forked child's timer thread (one per process: a grandchild makes its own).
final class TimerThread: @unchecked Sendable {
  private static let current = Mutex<(generation: UInt, timer: TimerThread)?>(nil)

  static func forThisProcess() -> TimerThread {
    let generation = rxc_fork_generation()
    return current.withLock { c in
      if let c, c.generation == generation { return c.timer }
      let timer = TimerThread()
      c = (generation, timer)
      return timer
    }
  }

  private let monitor = Monitor()
  private var items = TimerQueue<() -> Void>()
  private var running = false
  private static let idleNanoseconds: Int64 = 200_000_000

  func insert(_ block: @escaping () -> Void, due: Int64) {
    monitor.lock()
    items.insert(block, due: due)
    let start = !running
    running = true
    monitor.unlock()
    monitor.signal()
    if start { Monitor.spawn { [self] in serve() } }
  }

  private func serve() {
    monitor.lock()
    while true {
      let now = MonotonicClock.now()
      if let top = items.first, top.due <= now {
        _ = items.popFirst()
        monitor.unlock()
        top.item()
        monitor.lock()
        continue
      }
      if let top = items.first {
        monitor.wait(until: top.due)
      } else if !monitor.wait(until: now + Self.idleNanoseconds) && items.isEmpty {
        break
      }
    }
    running = false
    monitor.unlock()
  }
}
