import CRxcCore
import Synchronization

/// Virtual time for tests, with RxSwift's VirtualTimeScheduler semantics: work runs only
/// when the clock is advanced; items due at the same time run in the order they were
/// scheduled; inside an action `now` is that item's due time; zero-delay work runs at the
/// current time on the next advance (`advance(by: 0)` runs it); the clock never goes back.
public final class VirtualTimeScheduler: Scheduler, @unchecked Sendable {
  public enum AdvanceStatus { case ok, past, busy }

  // `items` and `sweepAt` are guarded by `lock` (held for a heap operation, never over an
  // action: a spin lock costs a CAS where a Mutex costs two futex-word calls). `clock` is
  // written under the lock too, and read without it: `now` is asked per event.
  private let lock = SpinLock()
  private let clock = Atomic<Int64>(0)
  private var items = TimerQueue<ScheduledAction>()
  /// The first item's due time (Int64.max when none), stored under the lock at each change
  /// of `items`: after an action the run loop reads it to leave without taking the lock again
  /// when nothing else is due by its limit (what the action scheduled on this thread is in it).
  private let firstDue = Atomic<Int64>(.max)
  /// A run loop is running. Set under the lock; cleared by the loop on its way out.
  private let running = Atomic<Bool>(false)
  /// Disposed items stay queued until due (a dispose does not search the heap); once the
  /// heap has doubled since the last sweep, a sweep drops them, so a re-armed timeout far in
  /// the future costs O(1) amortized per schedule instead of a heap that grows per event.
  private var sweepAt = 64

  public override init() { super.init() }

  public override var now: Int64 { clock.load(ordering: .acquiring) }
  public override var isSerial: Bool { true }

  public override func scheduleAfter(_ delay: Int64, _ action: __owned @escaping () -> Void) -> any Disposable {
    let item = ScheduledAction.make(consume action)
    // The queue's reference taken without a locked instruction: nothing but this call can
    // reach the action yet (new, or a spare taken solely owned), and the lock publishes it.
    let queued = Unmanaged.passUnretained(item)
    _ = swift_nonatomic_retain(queued.toOpaque())
    lock.lock()
    items.insert(queued.takeRetainedValue(), due: MonotonicClock.deadline(after: delay, from: clock.load(ordering: .relaxed)))
    if items.count >= sweepAt {
      items.removeAll { $0.isDisposed }
      sweepAt = Swift.max(64, 2 * items.count)
    }
    noteFirstDue()
    lock.unlock()
    return item
  }

  /// Under the lock, after `items` changed.
  @inline(__always) private func noteFirstDue() { firstDue.store(items.firstDue ?? .max, ordering: .releasing) }

  /// Runs everything due at or before `time`, then sets the clock to `time`.
  public func advance(to time: Int64) -> AdvanceStatus { runLoop(until: time) }

  public func advance(by delta: Int64) -> AdvanceStatus {
    if delta < 0 { return .past }
    return runLoop(until: MonotonicClock.deadline(after: delta, from: now))
  }

  /// Runs until no work is left; the clock ends at the last item's due time.
  public func start() -> AdvanceStatus { runLoop(until: nil) }

  private func runLoop(until limit: Int64?) -> AdvanceStatus {
    lock.lock()
    if running.load(ordering: .relaxed) {
      lock.unlock()
      return .busy
    }
    if let limit, limit < clock.load(ordering: .relaxed) {
      lock.unlock()
      return .past
    }
    running.store(true, ordering: .relaxed)
    let last = limit ?? .max
    while true {
      guard let due = items.firstDue, due <= last else {
        lock.unlock()
        return finish(limit)
      }
      let item = items.popFirst().unsafelyUnwrapped.item
      noteFirstDue()
      if due > clock.load(ordering: .relaxed) { clock.store(due, ordering: .releasing) }
      lock.unlock()
      item.run()
      ScheduledAction.recycle(consume item)
      // Nothing due by the limit: done without the lock (an item another thread schedules
      // meanwhile waits for the next advance, as one scheduled just after it would).
      let next = firstDue.load(ordering: .acquiring)
      if next == .max || next > last { return finish(limit) }
      lock.lock()
    }
  }

  private func finish(_ limit: Int64?) -> AdvanceStatus {
    if let limit { clock.store(limit, ordering: .releasing) }
    running.store(false, ordering: .releasing)
    return .ok
  }
}
