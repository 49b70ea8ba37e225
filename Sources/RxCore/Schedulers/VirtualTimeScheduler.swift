import Synchronization

/// Virtual time for tests, with RxSwift's VirtualTimeScheduler semantics: work runs only
/// when the clock is advanced; items due at the same time run in the order they were
/// scheduled; inside an action `now` is that item's due time; zero-delay work runs at the
/// current time on the next advance (`advance(by: 0)` runs it); the clock never goes back.
public final class VirtualTimeScheduler: Scheduler, @unchecked Sendable {
  public enum AdvanceStatus { case ok, past, busy }

  private struct State {
    var clock: Int64 = 0
    var items = TimerQueue<ScheduledAction>()
    var running = false
  }
  private let state = Mutex(State())

  public override init() { super.init() }

  public override var now: Int64 { state.withLock { $0.clock } }
  public override var isSerial: Bool { true }

  public override func scheduleAfter(_ delay: Int64, _ action: @escaping () -> Void) -> any Disposable {
    let item = ScheduledAction(action)
    state.withLock { s in s.items.insert(item, due: MonotonicClock.deadline(after: delay, from: s.clock)) }
    return item
  }

  /// Runs everything due at or before `time`, then sets the clock to `time`.
  public func advance(to time: Int64) -> AdvanceStatus { runLoop(until: time) }

  public func advance(by delta: Int64) -> AdvanceStatus {
    if delta < 0 { return .past }
    let target = state.withLock { MonotonicClock.deadline(after: delta, from: $0.clock) }
    return runLoop(until: target)
  }

  /// Runs until no work is left; the clock ends at the last item's due time.
  public func start() -> AdvanceStatus { runLoop(until: nil) }

  private func runLoop(until limit: Int64?) -> AdvanceStatus {
    let status = state.withLock { s -> AdvanceStatus in
      if s.running { return .busy }
      if let limit, limit < s.clock { return .past }
      s.running = true
      return .ok
    }
    guard status == .ok else { return status }
    while true {
      let item = state.withLock { s -> ScheduledAction? in
        guard let top = s.items.first, limit.map({ top.due <= $0 }) ?? true else {
          if let limit { s.clock = limit }
          s.running = false
          return nil
        }
        _ = s.items.popFirst()
        s.clock = Swift.max(s.clock, top.due)
        return top.item
      }
      guard let item else { return .ok }
      item.run()
    }
  }
}
