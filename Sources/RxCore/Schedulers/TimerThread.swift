import CRxcCore
import Synchronization

/// Where a timer's action goes once it is due. Called on the timer thread: hand the action
/// on (to a queue, a loop), never run the work there.
protocol TimerTarget: AnyObject {
  func timerFired(_ action: ScheduledAction)
}

/// The process's timers: one min-heap of delayed actions by due time, served by one thread of
/// the library's own (started on first use and ended when idle; a forked child starts its
/// own, and the parent's timers stay the parent's). The thread sleeps until the first due
/// time and is woken only by a timer due before that.
///
/// A disposed timer goes at once: its action's closure when it is disposed, and the heap's
/// entry (and its reference to the action) at the latest when disposed entries make up half
/// of the heap, in one sweep (O(1) amortized per dispose). Dispatch's asyncAfter, used
/// before, cannot be cancelled: every disposed timer kept its memory until its deadline.
final class TimerThread: @unchecked Sendable {
  private static let current = ForkSafeMutex<(generation: UInt, timer: TimerThread)?>(nil)

  static func forThisProcess() -> TimerThread {
    let generation = rxc_fork_generation()
    let (timer, replaced) = current.withLock { c -> (TimerThread, TimerThread?) in
      if let c, c.generation == generation { return (c.timer, nil) }
      let timer = TimerThread(generation: generation)
      defer { c = (generation, timer) }
      return (timer, c?.timer)
    }
    replaced?.abandon()  // after unlocking
    return timer
  }

  /// In a forked child, the parent's timer: its actions (which hold it: a cycle) never run
  /// here, so they go now. Unlocked: its lock may have been held at the fork, and no thread
  /// here uses this timer any more (`cancelled` checks the generation first).
  private func abandon() {
    var dropped = TimerQueue<Entry>()
    swap(&dropped, &items)
  }

  struct Entry {
    let action: ScheduledAction
    let target: any TimerTarget
  }

  /// The fork generation this timer serves (a parent's timer is never touched in a child).
  let generation: UInt
  private let monitor = Monitor()
  private var items = TimerQueue<Entry>()
  private var running = false
  /// The due time the thread sleeps until: .max when idle, .min while it is not waiting.
  private var sleepsUntil: Int64 = .min
  private static let idleNanoseconds: Int64 = 200_000_000

  private init(generation: UInt) { self.generation = generation }

  func insert(_ action: ScheduledAction, due: Int64, target: any TimerTarget) {
    action.timer = self  // before the caller hands the action out: its dispose then finds us
    monitor.lock()
    items.insert(Entry(action: action, target: target), due: due)
    let start = !running
    running = true
    let wake = due < sleepsUntil
    monitor.unlock()
    if start {
      DetachedThread.start { [self] in serve() }
    } else if wake {
      monitor.signal()
    }
  }

  /// One of our actions was disposed before it ran.
  func cancelled() {
    guard generation == rxc_fork_generation() else { return }
    monitor.lock()
    items.noteDisposed { $0.action.isDisposed }
    monitor.unlock()
  }

  /// Entries in the heap, disposed ones included (tests).
  var count: Int {
    monitor.lock()
    defer { monitor.unlock() }
    return items.count
  }

  private func serve() {
    monitor.lock()
    while true {
      let now = MonotonicClock.now()
      if let due = items.firstDue, due <= now {
        let top = items.popFirst().unsafelyUnwrapped.item
        if top.action.isDisposed {
          items.droppedDisposed()
          continue
        }
        monitor.unlock()
        top.target.timerFired(top.action)
        monitor.lock()
        continue
      }
      if let due = items.firstDue {
        sleepsUntil = due
        monitor.wait(until: due)
      } else {
        sleepsUntil = .max
        if !monitor.wait(until: now + Self.idleNanoseconds) && items.isEmpty { break }
      }
      sleepsUntil = .min
    }
    running = false
    sleepsUntil = .min
    monitor.unlock()
  }
}
