/// What a run loop's timers reach. It holds the loop (strongly: no weak reference, whose side
/// table would hide the loop from leak checkers) while a timer is pending, so a firing timer
/// never drops the loop's last reference inside the loop's own lock; the loop's `close` lets
/// go at once.
final class RunLoopTimerTarget: @unchecked Sendable {
  private let state = ForkSafeMutex<(loop: RunLoopScheduler?, pending: Int)>((nil, 0))  // the child's timers use it

  func armed(_ loop: RunLoopScheduler) {
    state.withLock {
      $0.loop = loop
      $0.pending += 1
    }
  }

  func fire() {
    let loop = state.withLock { s -> RunLoopScheduler? in
      s.pending -= 1
      let loop = s.loop
      if s.pending == 0 { s.loop = nil }
      return loop
    }
    loop?.promoteDueNow()
  }

  func clear() {
    let loop = state.withLock { s -> RunLoopScheduler? in
      let loop = s.loop
      s.loop = nil
      return loop
    }
    _ = loop  // released here, outside the lock
  }
}
