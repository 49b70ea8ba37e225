import CRxc
import RxCore

// rxc.h section 8: run loops, the main one (rx_main_*) among them.

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
