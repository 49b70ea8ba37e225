/// Runs every action at once, on the calling thread. Delayed work blocks the caller until
/// it is due, so periodic work is not supported.
@_spi(RxC) public final class ImmediateScheduler: Scheduler, @unchecked Sendable {
  public static let instance = ImmediateScheduler()

  public override var supportsPeriodic: Bool { false }

  public override func schedule(_ action: @escaping () -> Void) -> any Disposable {
    action()
    return NopDisposable.shared
  }

  override func makeTrigger(_ action: TriggeredAction) -> SchedulerTrigger? { InlineTrigger(action) }

  final class InlineTrigger: SchedulerTrigger {
    // Unmanaged: a `let` is retained around the call otherwise (this trigger holds it).
    override func fire() { Unmanaged.passUnretained(action)._withUnsafeGuaranteedRef { $0.run() } }
  }

  public override var runsActionsInlineNow: Bool { true }

  public override func scheduleAfter(_ delay: Int64, _ action: __owned @escaping () -> Void) -> any Disposable {
    if delay > 0 { MonotonicClock.sleep(until: MonotonicClock.deadline(after: delay, from: now)) }
    action()
    return NopDisposable.shared
  }
}
