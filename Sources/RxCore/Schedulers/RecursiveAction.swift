/// RxSwift's `scheduleRecursive`: an action that schedules itself again, now or after a
/// delay, through the chain it is given. Each `recurse` schedules one more run; disposing the
/// chain cancels every run not yet started, and none is scheduled after. The action is
/// released (and with it what it captured) once no run is pending or running, or at dispose
/// (after a run in progress returns).
///
/// A run scheduled on a scheduler that runs work inline (immediate) nests inside the
/// `recurse` call, as in RxSwift; the current-thread scheduler queues it instead.
///
/// The chain counts as a live object (`Resources`) while it holds its action, not until its
/// deinit: what is left after the end is an empty shell, which a holder may keep for good
/// (a released C token under RXC_DEBUG stays allocated, and holds its chain).
@_spi(RxC) public final class RecursiveAction: Cancelable, @unchecked Sendable {
  public enum RecurseResult: Sendable {
    case scheduled
    /// The chain was disposed: nothing is scheduled again.
    case disposed
    /// No run is pending or running: the chain has ended and its action is gone.
    case ended
  }

  private struct State {
    var action: ((RecursiveAction) -> Void)?
    var disposed = false
    /// Runs scheduled and not yet finished.
    var outstanding = 0
    var nextKey = 0
    /// The scheduler's tokens of pending runs, by key.
    var pending: [Int: any Disposable] = [:]
    /// Runs that started before `schedule` returned their token (inline schedulers).
    var startedEarly: Set<Int> = []
  }

  private let scheduler: Scheduler
  private let state: Mutex<State>

  /// A chain that has not run yet: `start` schedules its first run.
  public init(scheduler: Scheduler, _ action: @escaping (RecursiveAction) -> Void) {
    self.scheduler = scheduler
    self.state = Mutex(State(action: action))
    Resources.increment()
  }

  /// A chain dropped unstarted or with runs pending (its scheduler let go of them).
  deinit { if state.withLock({ $0.action != nil }) { Resources.decrement() } }

  /// Schedules the first run, as soon as the scheduler can.
  public func start() { _ = schedule(after: nil) }

  /// Schedules one more run: as soon as the scheduler can (`delay` nil), or `delay` ns from
  /// now (negative is zero).
  @discardableResult
  public func recurse(after delay: Int64? = nil) -> RecurseResult { schedule(after: delay) }

  public var isDisposed: Bool { state.withLock { $0.disposed } }

  public func dispose() {
    let (action, pending): (((RecursiveAction) -> Void)?, [any Disposable]) = state.withLock { s in
      if s.disposed { return (nil, []) }
      s.disposed = true
      let pending = Array(s.pending.values)
      s.pending.removeAll()
      defer { s.action = nil }
      return (s.action, pending)
    }
    for d in pending { d.dispose() }
    if action != nil { Resources.decrement() }
    _ = action  // released here, outside the lock (a run in progress keeps its own reference)
  }

  private func schedule(after delay: Int64?) -> RecurseResult {
    let key: Int? = state.withLock { s in
      if s.disposed || s.action == nil { return nil }
      s.outstanding += 1
      s.nextKey += 1
      return s.nextKey
    }
    guard let key else { return isDisposed ? .disposed : .ended }
    let token: any Disposable
    if let delay {
      token = scheduler.scheduleAfter(Swift.max(0, delay)) { self.run(key) }
    } else {
      token = scheduler.schedule { self.run(key) }
    }
    let cancel: Bool = state.withLock { s in
      if s.startedEarly.remove(key) != nil { return false }
      if s.disposed { return true }
      s.pending[key] = token
      return false
    }
    if cancel { token.dispose() }
    return .scheduled
  }

  private func run(_ key: Int) {
    let action: ((RecursiveAction) -> Void)? = state.withLock { s in
      if s.pending.removeValue(forKey: key) == nil { s.startedEarly.insert(key) }
      return s.disposed ? nil : s.action
    }
    action?(self)
    let ended: ((RecursiveAction) -> Void)? = state.withLock { s in
      s.outstanding -= 1
      guard s.outstanding == 0, !s.disposed else { return nil }
      defer { s.action = nil }
      return s.action
    }
    if ended != nil { Resources.decrement() }
    _ = ended  // the chain's last run: its action is released here, outside the lock
  }
}
