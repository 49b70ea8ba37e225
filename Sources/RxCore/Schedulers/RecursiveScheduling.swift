import CRxcCore
import Synchronization

/// RxSwift's scheduleRecursive for sources that emit one element per scheduled action
/// (repeatElement, generate): `step` runs on the scheduler, and each time it returns true
/// it is scheduled again, so other work on a serial scheduler runs between two steps;
/// disposing `pending` cancels the next one. A scheduler that runs the action at once on
/// the scheduling thread (immediate, or current-thread outside a trampoline) gets a loop
/// here instead of a recursion as deep as the number of steps; when it says so beforehand
/// (`Scheduler.runsActionsInlineNow`) the loop schedules nothing at all per step.
final class RecursiveScheduling: @unchecked Sendable {
  let scheduler: Scheduler
  /// The scheduled next step: the subscription to hand back from `run`.
  public let pending = SerialDisposable()

  public init(scheduler: Scheduler) { self.scheduler = scheduler }

  /// A source's `run`: starts `step` on `scheduler`; returns the subscription to hand back.
  @inline(__always)
  static func start(on scheduler: Scheduler, _ step: @escaping () -> Bool) -> any Disposable {
    let recursion = RecursiveScheduling(scheduler: scheduler)
    recursion.start(step)
    return recursion.pending
  }

  /// Schedules `step`, and again after each run that returns true. The loop of a scheduler
  /// that runs actions inline is inlined into the source, with its step.
  @inline(__always)
  public func start(_ step: @escaping () -> Bool) {
    if scheduler.runsActionsInlineNow { return loop(step) }
    schedule(step)
  }

  /// What scheduling each step would do, without the action, its check and its slot.
  /// Asked once: a step runs on this thread and leaves its trampoline as it found it.
  @inline(__always)
  func loop(_ step: () -> Bool) {
    while !pending.isDisposed && step() {}
  }

  /// `start` on a scheduler that runs actions later (or may): each step scheduled after the
  /// previous one returned.
  @inline(never)
  func schedule(_ step: @escaping () -> Bool) {
    while true {
      if scheduler.runsActionsInlineNow { return loop(step) }
      let once = InlineCheck()
      pending.setScheduled {
        scheduler.schedule { [self] in
          if once.claimInline() { return }
          if step() { start(step) }
        }
      }
      if once.leaveScheduled() { return }
      if !step() { return }
    }
  }
}

/// The sink of a source that emits one element per step (generate, repeatElement).
class SteppingSink<Element>: Sink<Element, Element> {
  /// Whether a step may run: false (disposing the sink if nobody wants more) if not.
  @inline(__always) final func mayStep() -> Bool {
    if isDisposed { return false }
    if observer.wantsNoMoreEvents {
      dispose()
      return false
    }
    return true
  }

  /// Forwards the step's element; false when no step should follow.
  @inline(__always) final func emit(_ element: Element) -> Bool {
    forwardOn(.next(element))
    return !isDisposed
  }
}

/// One scheduling: whether its action ran inline, inside `schedule` on the scheduling
/// thread (the scheduling frame then runs the step), or later (the action runs it).
final class InlineCheck: @unchecked Sendable {
  private let thread = rxc_thread_self()
  private let state = Atomic<Int>(0)  // 0 scheduling, 1 ran inline, 2 schedule returned

  /// In the action: true if it runs inside `schedule` on the scheduling thread.
  func claimInline() -> Bool {
    thread == rxc_thread_self()
      && state.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged
  }

  /// After `schedule` returned: true if the action has not run inline.
  func leaveScheduled() -> Bool {
    state.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged
  }
}
