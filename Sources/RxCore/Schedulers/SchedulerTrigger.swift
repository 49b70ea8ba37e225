/// What a trigger runs: recurring work (observe_on's drain) as an object, called as a
/// method. A stored closure is retained and released around every call (two atomic
/// operations per run); a method of an object its owner holds in a `let` is not.
@usableFromInline class TriggeredAction {
  public init() {}

  open func run() { preconditionFailure("TriggeredAction.run is abstract") }
}

/// Schedules its action each time it fires, without allocating per fire (see
/// `Scheduler.makeTrigger`).
@usableFromInline class SchedulerTrigger {
  public let action: TriggeredAction

  public init(_ action: TriggeredAction) { self.action = action }

  /// Schedules one run of `action`.
  open func fire() { preconditionFailure("SchedulerTrigger.fire is abstract") }
}
