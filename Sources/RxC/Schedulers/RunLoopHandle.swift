import CRxc
@_spi(RxC) import RxCore

/// An rx_run_loop. It owns one C reference of its scheduler's handle; the last release
/// closes the loop (its pending work is dropped, see RunLoopScheduler.close).
class RunLoopHandle: Handle {
  let loop: RunLoopScheduler
  let schedulerHandle: SchedulerHandle

  init(_ loop: RunLoopScheduler, _ schedulerHandle: SchedulerHandle) {
    self.loop = loop
    self.schedulerHandle = schedulerHandle
    super.init(kind: .runLoop)
  }

  /// A new loop's handle, holding its scheduler's handle by one C reference.
  static func make(_ loop: RunLoopScheduler) -> UnsafeMutablePointer<rx_run_loop> {
    let scheduler = SchedulerHandle(loop, closableLoop: loop)
    _ = scheduler.toC()
    return RunLoopHandle(loop, scheduler).cPointer
  }

  var cPointer: UnsafeMutablePointer<rx_run_loop> {
    toC().assumingMemoryBound(to: rx_run_loop.self)
  }

  override func destroyed() {
    loop.close()
    schedulerHandle.releaseC()
  }

  static func from(_ p: UnsafeRawPointer?, _ fn: StaticString) -> RunLoopHandle? {
    Validate.handle(p, .runLoop, as: RunLoopHandle.self, fn, "loop")
  }
}

/// The main loop's handle: one for the process, never ended, not counted as live (as the
/// shared schedulers).
final class SharedRunLoopHandle: RunLoopHandle {
  static let main = SharedRunLoopHandle()

  private init() {
    super.init(mainScheduler, SharedSchedulerHandle.main)
    cRefs.store(Int.max / 2, ordering: .relaxed)
    Resources.decrement()
  }

  var borrowedPointer: UnsafeMutablePointer<rx_run_loop> {
    Unmanaged.passUnretained(self).toOpaque().assumingMemoryBound(to: rx_run_loop.self)
  }
}
