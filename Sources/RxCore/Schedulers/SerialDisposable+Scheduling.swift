extension SerialDisposable {
  /// Makes the work `schedule` starts the current one. The slot is taken before the work is
  /// scheduled, so work that runs (and replaces the current one) before `schedule` returns
  /// is never disposed by this call finishing late (RxSwift's SingleAssignmentDisposable
  /// pattern, with a ticket instead of an allocated slot).
  @inlinable
  public func setScheduled(_ schedule: () -> any Disposable) {
    let ticket = reserve()
    fill(schedule(), ticket: ticket)
  }
}
