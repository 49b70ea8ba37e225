import CRxc
import RxCore

// rxc.h section 8: schedulers, scheduling, and the test scheduler.

@c(rx_scheduler_immediate)
public func rx_scheduler_immediate() -> UnsafeMutablePointer<rx_scheduler>? {
  SharedSchedulerHandle.immediate.borrowedPointer
}

@c(rx_scheduler_current_thread)
public func rx_scheduler_current_thread() -> UnsafeMutablePointer<rx_scheduler>? {
  SharedSchedulerHandle.currentThread.borrowedPointer
}

@c(rx_scheduler_main)
public func rx_scheduler_main() -> UnsafeMutablePointer<rx_scheduler>? {
  SharedSchedulerHandle.main.borrowedPointer
}

/// A label for Dispatch: the caller's, or a default.
private func queueLabel(_ label: UnsafePointer<CChar>?, _ fallback: String) -> String {
  label.map { String(cString: $0) } ?? fallback
}

@c(rx_scheduler_serial_new)
public func rx_scheduler_serial_new(_ label: UnsafePointer<CChar>?) -> UnsafeMutablePointer<rx_scheduler>? {
  SchedulerHandle.make(SerialQueueScheduler(label: queueLabel(label, "rxc.serial")))
}

@c(rx_scheduler_concurrent_new)
public func rx_scheduler_concurrent_new(_ label: UnsafePointer<CChar>?) -> UnsafeMutablePointer<rx_scheduler>? {
  SchedulerHandle.make(ConcurrentQueueScheduler(label: queueLabel(label, "rxc.concurrent")))
}

@c(rx_scheduler_operation_queue_new)
public func rx_scheduler_operation_queue_new(_ label: UnsafePointer<CChar>?, _ maxConcurrent: Int32)
  -> UnsafeMutablePointer<rx_scheduler>?
{
  guard maxConcurrent >= 1 else {
    setLastError("rx_scheduler_operation_queue_new: max_concurrent must be >= 1 (got \(maxConcurrent))")
    return nil
  }
  return SchedulerHandle.make(OperationQueueScheduler(
    label: queueLabel(label, "rxc.operation-queue"), maxConcurrent: Int(maxConcurrent)))
}

@c(rx_scheduler_new_thread)
public func rx_scheduler_new_thread() -> UnsafeMutablePointer<rx_scheduler>? {
  SchedulerHandle.make(NewThreadScheduler())
}

@c(rx_test_scheduler_new)
public func rx_test_scheduler_new() -> UnsafeMutablePointer<rx_scheduler>? {
  TestSchedulerHandle().cPointer
}

@c(rx_scheduler_custom_new)
public func rx_scheduler_custom_new(
  _ vt: UnsafePointer<rx_scheduler_vtable>?, _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_scheduler>? {
  guard let vt else {
    setLastError("rx_scheduler_custom_new: vt is NULL")
    return nil
  }
  guard vt.pointee.schedule != nil else {
    setLastError("rx_scheduler_custom_new: vt->schedule is NULL")
    return nil
  }
  return SchedulerHandle.make(CustomScheduler(vt.pointee, CContext(ctx, ctxFree)))
}

/// A closed run loop (its last handle released) takes no more work.
@inline(__always)
func closedLoop(_ s: SchedulerHandle, _ fn: StaticString) -> Bool {
  guard let loop = s.closableLoop, loop.isClosed else { return false }
  setLastError("\(fn): the scheduler's run loop was released (closed)")
  return true
}

@c(rx_schedule)
public func rx_schedule(
  _ scheduler: UnsafeMutablePointer<rx_scheduler>?, _ action: rx_action_fn?,
  _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_disposable>? {
  guard let s = SchedulerHandle.from(scheduler, "rx_schedule") else { return nil }
  guard !closedLoop(s, "rx_schedule") else { return nil }
  guard let action else {
    setLastError("rx_schedule: action is NULL")
    return nil
  }
  let context = CContext(ctx, ctxFree)
  return DisposableHandle.make(s.scheduler.schedule { action(context.ctx) })
}

@c(rx_schedule_after)
public func rx_schedule_after(
  _ scheduler: UnsafeMutablePointer<rx_scheduler>?, _ delay: Int64, _ action: rx_action_fn?,
  _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_disposable>? {
  guard let s = SchedulerHandle.from(scheduler, "rx_schedule_after") else { return nil }
  guard !closedLoop(s, "rx_schedule_after") else { return nil }
  guard let action else {
    setLastError("rx_schedule_after: action is NULL")
    return nil
  }
  let context = CContext(ctx, ctxFree)
  return DisposableHandle.make(s.scheduler.scheduleAfter(max(0, delay)) { action(context.ctx) })
}

@c(rx_schedule_periodic)
public func rx_schedule_periodic(
  _ scheduler: UnsafeMutablePointer<rx_scheduler>?, _ startAfter: Int64, _ period: Int64,
  _ action: rx_action_fn?, _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_disposable>? {
  guard let s = SchedulerHandle.from(scheduler, "rx_schedule_periodic") else { return nil }
  guard !closedLoop(s, "rx_schedule_periodic") else { return nil }
  guard let action else {
    setLastError("rx_schedule_periodic: action is NULL")
    return nil
  }
  guard period > 0 else {
    setLastError("rx_schedule_periodic: period must be > 0 (got \(period))")
    return nil
  }
  guard s.scheduler.supportsPeriodic else {
    setLastError("rx_schedule_periodic: the immediate and current-thread schedulers cannot run periodic work")
    return nil
  }
  let context = CContext(ctx, ctxFree)
  return DisposableHandle.make(
    s.scheduler.schedulePeriodic(startAfter: max(0, startAfter), period: period) { action(context.ctx) })
}

@c(rx_scheduler_now_ns)
public func rx_scheduler_now_ns(_ scheduler: UnsafeMutablePointer<rx_scheduler>?) -> Int64 {
  guard let s = SchedulerHandle.from(scheduler, "rx_scheduler_now_ns") else { return -1 }
  return s.scheduler.now
}

@c(rx_scheduler_is_serial)
public func rx_scheduler_is_serial(_ scheduler: UnsafeMutablePointer<rx_scheduler>?) -> Bool {
  SchedulerHandle.from(scheduler, "rx_scheduler_is_serial")?.scheduler.isSerial ?? false
}

private func advanceStatus(_ status: VirtualTimeScheduler.AdvanceStatus, _ fn: StaticString) -> rx_status {
  switch status {
  case .ok: return RX_OK
  case .past: return fail(RX_EINVAL, "\(fn): time would go backwards")
  case .busy: return fail(RX_ESTATE, "\(fn): the test scheduler is already running (called from one of its actions?)")
  }
}

@c(rx_test_scheduler_advance_to)
public func rx_test_scheduler_advance_to(_ scheduler: UnsafeMutablePointer<rx_scheduler>?, _ time: Int64) -> rx_status {
  // Borrowed (no retain/release): a workload or test advances once per event.
  guard let status = TestSchedulerHandle.borrowTest(scheduler, "rx_test_scheduler_advance_to", { $0.virtual.advance(to: time) }) else {
    return invalid(scheduler)
  }
  return advanceStatus(status, "rx_test_scheduler_advance_to")
}

@c(rx_test_scheduler_advance_by)
public func rx_test_scheduler_advance_by(_ scheduler: UnsafeMutablePointer<rx_scheduler>?, _ delta: Int64) -> rx_status {
  // Borrowed (no retain/release): a workload or test advances once per event.
  guard let status = TestSchedulerHandle.borrowTest(scheduler, "rx_test_scheduler_advance_by", { $0.virtual.advance(by: delta) }) else {
    return invalid(scheduler)
  }
  return advanceStatus(status, "rx_test_scheduler_advance_by")
}

@c(rx_test_scheduler_run)
public func rx_test_scheduler_run(_ scheduler: UnsafeMutablePointer<rx_scheduler>?) -> rx_status {
  guard let t = TestSchedulerHandle.fromTest(scheduler, "rx_test_scheduler_run") else { return invalid(scheduler) }
  return advanceStatus(t.virtual.start(), "rx_test_scheduler_run")
}
