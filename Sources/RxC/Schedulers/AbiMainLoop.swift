import CRxc
import RxCore

// rxc.h section 8: the main run loop for C programs.

private func loopStatus(_ status: MainScheduler.LoopStatus, _ fn: StaticString) -> rx_status {
  switch status {
  case .ok: return RX_OK
  case .notMainThread: return fail(RX_ESTATE, "\(fn): called off the main thread")
  case .nested: return fail(RX_ESTATE, "\(fn): called from inside main-scheduler work (nested run)")
  }
}

@c(rx_main_run)
public func rx_main_run() -> rx_status {
  loopStatus(mainScheduler.run(timeout: nil), "rx_main_run")
}

@c(rx_main_run_for)
public func rx_main_run_for(_ timeout: Int64) -> rx_status {
  guard timeout >= 0 else { return fail(RX_EINVAL, "rx_main_run_for: timeout must be >= 0 (got \(timeout))") }
  return loopStatus(mainScheduler.run(timeout: timeout), "rx_main_run_for")
}

@c(rx_main_drain)
public func rx_main_drain() -> UInt {
  let main = mainScheduler
  guard MainThread.isCurrent else {
    setLastError("rx_main_drain: called off the main thread")
    return 0
  }
  guard let ran = main.drain() else {
    setLastError("rx_main_drain: called from inside main-scheduler work (nested drain)")
    return 0
  }
  return UInt(ran)
}

@c(rx_main_stop)
public func rx_main_stop() -> rx_status {
  mainScheduler.stop()
  return RX_OK
}

@c(rx_main_fd)
public func rx_main_fd() -> Int32 {
  let fd = mainScheduler.fd
  if fd < 0 { setLastError("rx_main_fd: the main scheduler could not create its pipe") }
  return fd
}
