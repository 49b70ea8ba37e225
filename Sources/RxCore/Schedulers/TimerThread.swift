import CRxcCore
import Synchronization

/// The forked child's timer thread (one per process: a grandchild makes its own).
final class TimerThread: @unchecked Sendable {
  private static let current = ForkSafeMutex<(generation: UInt, timer: TimerThread)?>(nil)

  static func forThisProcess() -> TimerThread {
    let generation = rxc_fork_generation()
    let (timer, replaced) = current.withLock { c -> (TimerThread, TimerThread?) in
      if let c, c.generation == generation { return (c.timer, nil) }
      let timer = TimerThread()
      defer { c = (generation, timer) }
      return (timer, c?.timer)
    }
    withExtendedLifetime(replaced) {}  // the parent's timer (and the blocks it held) goes after unlocking
    return timer
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
    if start { DetachedThread.start { [self] in serve() } }
  }

  private func serve() {
    monitor.lock()
    while true {
      let now = MonotonicClock.now()
      if let due = items.firstDue, due <= now {
        let top = items.popFirst().unsafelyUnwrapped
        monitor.unlock()
        top.item()
        monitor.lock()
        continue
      }
      if let due = items.firstDue {
        monitor.wait(until: due)
      } else if !monitor.wait(until: now + Self.idleNanoseconds) && items.isEmpty {
        break
      }
    }
    running = false
    monitor.unlock()
  }
}
