extension SerialDisposable {
  /// Makes the work `schedule` starts the current one. The slot is installed before the
  /// work is scheduled, so work that runs (and replaces the current one) before `schedule`
  /// returns is never disposed by this call finishing late; RxSwift's
  /// SingleAssignmentDisposable pattern.
  @inlinable
  public func setScheduled(_ schedule: () -> any Disposable) {
    let slot = SingleAssignmentDisposable()
    set(slot)
    slot.setDisposable(schedule())
  }
}
