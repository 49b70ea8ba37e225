import CRxc
@_spi(RxC) import RxCore

// rxc.h section 8: schedulers, scheduling, the test scheduler, recursive scheduling, and
// run loops (the main one, rx_main_*, among them).

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
  return SchedulerHandle.make(CustomScheduler.make(vt.pointee, CContext(ctx, ctxFree)))
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

/// The token of rx_schedule_recursive, which is also the handle its action gets to
/// reschedule itself (rx_recurse accepts only these).
final class RecursiveDisposableHandle: DisposableHandle {
  let chain: RecursiveAction

  init(_ chain: RecursiveAction) {
    self.chain = chain
    super.init(chain)
  }
}

@c(rx_schedule_recursive)
public func rx_schedule_recursive(
  _ scheduler: UnsafeMutablePointer<rx_scheduler>?, _ action: rx_recursive_fn?,
  _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_disposable>? {
  guard let s = SchedulerHandle.from(scheduler, "rx_schedule_recursive") else { return nil }
  guard !closedLoop(s, "rx_schedule_recursive") else { return nil }
  guard let action else {
    setLastError("rx_schedule_recursive: action is NULL")
    return nil
  }
  let context = CContext(ctx, ctxFree)
  let link = ChainLink()
  let chain = RecursiveAction(scheduler: s.scheduler) { _ in action(context.ctx, link.pointer) }
  let h = RecursiveDisposableHandle(chain)
  let token = h.cPointer  // the caller's C reference
  link.hold(h)
  chain.start()
  return token
}

/// The chain's own C reference to its token, dropped when the chain releases its action
/// (ended or disposed): the action's `self` stays a live handle while the chain lives, even
/// after the caller released the token.
private final class ChainLink {
  private var handle: RecursiveDisposableHandle?
  private(set) var pointer: UnsafeMutablePointer<rx_disposable>?

  func hold(_ h: RecursiveDisposableHandle) {
    _ = h.retainC()  // cannot fail: the caller's reference was just made
    handle = h
    pointer = Unmanaged.passUnretained(h).toOpaque().assumingMemoryBound(to: rx_disposable.self)
  }

  deinit { handle?.releaseC() }
}

@c(rx_recurse)
public func rx_recurse(_ me: UnsafeMutablePointer<rx_disposable>?) -> rx_status {
  recurse(me, after: nil, "rx_recurse")
}

@c(rx_recurse_after)
public func rx_recurse_after(_ me: UnsafeMutablePointer<rx_disposable>?, _ delay: Int64) -> rx_status {
  recurse(me, after: delay, "rx_recurse_after")
}

private func recurse(_ p: UnsafeMutablePointer<rx_disposable>?, after delay: Int64?, _ fn: StaticString) -> rx_status {
  guard let h = Validate.handle(p, .disposable, as: RecursiveDisposableHandle.self, fn, "self",
    sortName: "the token of rx_schedule_recursive")
  else { return invalid(p) }
  switch h.chain.recurse(after: delay) {
  case .scheduled: return RX_OK
  case .disposed: return fail(RX_EDISPOSED, "\(fn): the chain was disposed")
  case .ended: return fail(RX_ESTATE, "\(fn): the chain has ended (no run pending or running)")
  }
}

private func wrongThread(_ loop: RunLoopScheduler, _ fn: StaticString) -> String {
  loop.isMainLoop ? "\(fn): called off the main thread"
    : "\(fn): called on a thread other than the one the loop is bound to"
}

private func nested(_ loop: RunLoopScheduler, _ fn: StaticString, _ what: StaticString = "run") -> String {
  "\(fn): called from inside \(loop.isMainLoop ? "main-scheduler" : "the loop's") work (nested \(what))"
}

private func run(_ loop: RunLoopScheduler, _ timeout: Int64?, _ fn: StaticString) -> rx_status {
  if let timeout, timeout < 0 { return fail(RX_EINVAL, "\(fn): timeout must be >= 0 (got \(timeout))") }
  switch loop.run(timeout: timeout) {
  case .ok, .closed: return RX_OK
  case .wrongThread: return fail(RX_ESTATE, wrongThread(loop, fn))
  case .nested: return fail(RX_ESTATE, nested(loop, fn))
  }
}

private func drain(_ loop: RunLoopScheduler, _ fn: StaticString) -> UInt {
  switch loop.drain() {
  case .success(let ran): return UInt(ran)
  case .failure(.wrongThread): setLastError(wrongThread(loop, fn))
  case .failure(.nested): setLastError(nested(loop, fn, "drain"))
  }
  return 0
}

private func fd(_ loop: RunLoopScheduler, _ fn: StaticString) -> Int32 {
  let fd = loop.fd
  if fd < 0 { setLastError("\(fn): the loop could not create its pipe") }
  return fd
}

// ---- the main loop ----

@c(rx_main_run)
public func rx_main_run() -> rx_status { run(mainScheduler, nil, "rx_main_run") }

@c(rx_main_run_for)
public func rx_main_run_for(_ timeout: Int64) -> rx_status { run(mainScheduler, timeout, "rx_main_run_for") }

@c(rx_main_drain)
public func rx_main_drain() -> UInt { drain(mainScheduler, "rx_main_drain") }

@c(rx_main_stop)
public func rx_main_stop() -> rx_status {
  mainScheduler.stop()
  return RX_OK
}

@c(rx_main_fd)
public func rx_main_fd() -> Int32 { fd(mainScheduler, "rx_main_fd") }

// ---- any loop ----

@c(rx_run_loop_new)
public func rx_run_loop_new() -> UnsafeMutablePointer<rx_run_loop>? {
  let loop = RunLoopScheduler()
  guard loop.fd >= 0 else {
    setLastError("rx_run_loop_new: cannot create the loop's pipes (out of file descriptors?)")
    return nil
  }
  return RunLoopHandle.make(loop)
}

@c(rx_run_loop_main)
public func rx_run_loop_main() -> UnsafeMutablePointer<rx_run_loop>? {
  SharedRunLoopHandle.main.borrowedPointer
}

@c(rx_run_loop_scheduler)
public func rx_run_loop_scheduler(_ loop: UnsafeMutablePointer<rx_run_loop>?) -> UnsafeMutablePointer<rx_scheduler>? {
  guard let h = RunLoopHandle.from(loop, "rx_run_loop_scheduler") else { return nil }
  return Unmanaged.passUnretained(h.schedulerHandle).toOpaque().assumingMemoryBound(to: rx_scheduler.self)
}

@c(rx_run_loop_fd)
public func rx_run_loop_fd(_ loop: UnsafeMutablePointer<rx_run_loop>?) -> Int32 {
  guard let h = RunLoopHandle.from(loop, "rx_run_loop_fd") else { return -1 }
  return fd(h.loop, "rx_run_loop_fd")
}

@c(rx_run_loop_drain)
public func rx_run_loop_drain(_ loop: UnsafeMutablePointer<rx_run_loop>?) -> UInt {
  guard let h = RunLoopHandle.from(loop, "rx_run_loop_drain") else { return 0 }
  return withExtendedLifetime(h) { drain(h.loop, "rx_run_loop_drain") }
}

@c(rx_run_loop_run)
public func rx_run_loop_run(_ loop: UnsafeMutablePointer<rx_run_loop>?) -> rx_status {
  guard let h = RunLoopHandle.from(loop, "rx_run_loop_run") else { return invalid(loop) }
  // Kept alive for the call even if a (against rxc.h's borrow rule) last release comes meanwhile.
  return withExtendedLifetime(h) { run(h.loop, nil, "rx_run_loop_run") }
}

@c(rx_run_loop_run_for)
public func rx_run_loop_run_for(_ loop: UnsafeMutablePointer<rx_run_loop>?, _ timeout: Int64) -> rx_status {
  guard let h = RunLoopHandle.from(loop, "rx_run_loop_run_for") else { return invalid(loop) }
  return withExtendedLifetime(h) { run(h.loop, timeout, "rx_run_loop_run_for") }
}

@c(rx_run_loop_stop)
public func rx_run_loop_stop(_ loop: UnsafeMutablePointer<rx_run_loop>?) -> rx_status {
  guard let h = RunLoopHandle.from(loop, "rx_run_loop_stop") else { return invalid(loop) }
  h.loop.stop()
  return RX_OK
}
