import CRxc
@_spi(RxC) import RxCore

/// An rx_scheduler. Its sort is its class: the shared instances, a test scheduler, or any
/// other (serial, concurrent, operation queue, new thread, custom).
class SchedulerHandle: Handle {
  let scheduler: Scheduler
  /// The loop, when this is an rx_run_loop's scheduler: it refuses work once the loop is
  /// closed (`rx_schedule`...). Set at creation, so no call pays a cast to find out.
  let closableLoop: RunLoopScheduler?

  init(_ scheduler: Scheduler, closableLoop: RunLoopScheduler? = nil) {
    self.scheduler = scheduler
    self.closableLoop = closableLoop
    super.init(kind: .scheduler)
  }

  static func make(_ scheduler: Scheduler) -> UnsafeMutablePointer<rx_scheduler> {
    SchedulerHandle(scheduler).cPointer
  }

  /// A poisoned handle is never deinitialized (Handle keeps it for ever under RXC_DEBUG), so
  /// it lets go of its scheduler by hand, as SubjectHandle does of its subject: no entry point
  /// reads a poisoned handle's fields again.
  override func poisoned() {
    Unmanaged.passUnretained(scheduler).release()
    if let closableLoop { Unmanaged.passUnretained(closableLoop).release() }
  }

  var cPointer: UnsafeMutablePointer<rx_scheduler> {
    toC().assumingMemoryBound(to: rx_scheduler.self)
  }

  static func from(_ p: UnsafeRawPointer?, _ fn: StaticString, _ arg: StaticString = "scheduler")
    -> SchedulerHandle?
  {
    Validate.handle(p, .scheduler, as: SchedulerHandle.self, fn, arg)
  }

  /// The scheduler of a parameter that may be NULL: NULL is the current-thread scheduler;
  /// nil (and rx_last_error()) for a bad handle.
  static func orCurrentThread(_ p: UnsafeRawPointer?, _ fn: StaticString) -> Scheduler? {
    guard p != nil else { return CurrentThreadScheduler.instance }
    return from(p, fn)?.scheduler
  }
}

/// immediate, current_thread and main: one instance each for the whole process. Their C
/// count starts so high that rx_release never ends them (retain/release are no-ops in
/// effect), and they are not counted as live objects, so a first use inside a test does
/// not look like a leak.
final class SharedSchedulerHandle: SchedulerHandle {
  init(_ scheduler: Scheduler) {
    super.init(scheduler)
    cRefs.store(Int.max / 2, ordering: .relaxed)
    Resources.decrement()
  }

  var borrowedPointer: UnsafeMutablePointer<rx_scheduler> {
    Unmanaged.passUnretained(self).toOpaque().assumingMemoryBound(to: rx_scheduler.self)
  }

  static let immediate = SharedSchedulerHandle(ImmediateScheduler.instance)
  static let currentThread = SharedSchedulerHandle(CurrentThreadScheduler.instance)
  static let main: SharedSchedulerHandle = {
    MainThread.install(rxc_main_thread)
    return SharedSchedulerHandle(RunLoopScheduler.main)
  }()
}

/// The main scheduler, with the C layer's notion of the main thread installed.
var mainScheduler: RunLoopScheduler { SharedSchedulerHandle.main.scheduler as! RunLoopScheduler }

/// rx_test_scheduler_new's sort.
final class TestSchedulerHandle: SchedulerHandle {
  let virtual: VirtualTimeScheduler

  init() {
    virtual = VirtualTimeScheduler()
    super.init(virtual)
  }

  override func poisoned() {
    super.poisoned()
    Unmanaged.passUnretained(virtual).release()
  }

  static func fromTest(_ p: UnsafeRawPointer?, _ fn: StaticString) -> TestSchedulerHandle? {
    Validate.handle(p, .scheduler, as: TestSchedulerHandle.self, fn, "scheduler", sortName: "a test scheduler")
  }

  /// `body` on the test scheduler at `p`, borrowed; nil as `fromTest` would.
  @inline(__always)
  static func borrowTest<R>(_ p: UnsafeRawPointer?, _ fn: StaticString, _ body: (TestSchedulerHandle) -> R) -> R? {
    Validate.borrowing(p, .scheduler, as: TestSchedulerHandle.self, fn, "scheduler", sortName: "a test scheduler", body)
  }
}
