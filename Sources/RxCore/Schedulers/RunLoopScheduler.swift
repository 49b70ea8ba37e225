// Over 400 lines: the loop's state, its wake-up fd, its timers and the run/stop protocol share
// one lock; split, each part would reach into the others' state.
import CRxcCore
import Glibc
import Synchronization

/// A run loop: runs work on the thread that drives it, through `run`, `runFor`, `drain`, or
/// the program's own poll/epoll loop on `fd`, which is readable exactly while work is
/// pending. The main loop (`RunLoopScheduler.main`) is driven by the main thread only; any
/// other loop is bound to the first thread that drives it and then to that thread alone
/// (in a forked child, to the first thread that drives it there). That thread holds the
/// loop (so blocking calls there can run it) until `close`, until it binds another loop,
/// or until it exits.
///
/// As RxSwift's MainScheduler, `schedule` called on the loop's thread while nothing is
/// queued or running there runs the action at once; otherwise it enqueues. Delayed work
/// waits in a timer queue; one process timer, armed for the first due time, moves it to the
/// ready queue (and so makes `fd` readable) when it is due, and `drain` also collects
/// whatever is due by then. Disposed delayed work leaves the queue at once (in sweeps, see
/// TimerQueue), and the timer of a loop that closes goes with it.
public final class RunLoopScheduler: Scheduler, @unchecked Sendable {
  /// The main thread's loop.
  public static let main = RunLoopScheduler(mainThread: true)

  public enum LoopStatus { case ok, wrongThread, nested, closed }

  final class Item: ScheduledAction, @unchecked Sendable {
    // Strong: a token may outlive the loop's last handle. The cycle through the queues
    // ends when the item leaves them (run, disposed, or the loop closed).
    let owner: RunLoopScheduler
    var ready = false  // guarded by owner.state
    var waiting = false  // in `delayed`; guarded by owner.state
    init(_ owner: RunLoopScheduler, _ action: @escaping () -> Void) {
      self.owner = owner
      super.init(action)
    }
    override func cancelled() { owner.cancelled(self) }
  }

  struct State {
    var ready = RingBuffer<Item>()
    var delayed = TimerQueue<Item>()
    var live = 0          // ready items not disposed
    var signaled = false  // the pipe holds its byte
    var signaledGeneration: UInt = 0  // the fork generation `signaled` belongs to
    var busy = false      // an action of ours is running on the loop's thread
    var looping = false   // inside run / runFor
    var closed = false    // no more work is accepted
    var thread: UInt = 0  // the bound thread (rxc_thread_self), 0: none yet
    var threadGeneration: UInt = 0
    var binding: RunLoopBinding?  // the bound thread's record of this loop, cleared by close
    /// The process timer that wakes the loop (`wake`, due at `wakeAt`, .max: none) and the
    /// number of the last one armed (a wake-up that was replaced meanwhile leaves it be).
    var wake: ScheduledAction?
    var wakeAt = Int64.max
    var wakeNumber = 0
  }

  public let isMainLoop: Bool
  /// Held across fork(): a child drives the parent's loops (and the main loop).
  private let state = ForkSafeMutex(State())
  private let stopRequested = Atomic<Bool>(false)
  private let readFd: Int32, writeFd: Int32
  private let stopReadFd: Int32, stopWriteFd: Int32
  /// The fork generation the pipes belong to: a child replaces them on first use.
  private let pipeGeneration = Atomic<UInt>(0)
  /// The wake-up timer fired: what is due moves to the ready queue, and the timer is armed
  /// again for what is left.
  private func woken(_ number: Int) {
    let timer = TimerThread.forThisProcess()
    apply(state.withLock { s -> PipeOp in
      if s.wakeNumber == number {
        s.wake = nil
        s.wakeAt = .max
      }
      let op = promoteDue(&s, now: MonotonicClock.now())
      armWake(&s, on: timer)
      return op
    })
  }

  /// Under the lock: the wake-up timer is due no later than the first delayed item. Its
  /// action holds the loop (strongly: no weak reference, whose side table would hide the
  /// loop from leak checkers) until it runs or `close` disposes it. `timer` is taken before
  /// the lock (its lookup takes a lock held across fork, as the state's: never nested).
  private func armWake(_ s: inout State, on timer: TimerThread) {
    guard !s.closed, let due = s.delayed.firstDue, due < s.wakeAt else { return }
    s.wake?.dispose()
    s.wakeNumber &+= 1
    let number = s.wakeNumber
    let wake = ScheduledAction { [self] in woken(number) }
    s.wake = wake
    s.wakeAt = due
    timer.insert(wake, due: due, target: Timers.inline)
  }

  /// Tests: runs on the loop's thread right after each drain of `run`'s loop (a stall
  /// there, as a loaded machine makes one, must not lose work that falls due meanwhile).
  var afterLoopDrain: (() -> Void)?

  /// A loop bound to the first thread that drives it.
  public override convenience init() { self.init(mainThread: false) }

  private init(mainThread: Bool) {
    isMainLoop = mainThread
    (readFd, writeFd) = Self.makePipe()
    (stopReadFd, stopWriteFd) = Self.makePipe()
    pipeGeneration.store(rxc_fork_generation(), ordering: .relaxed)
    state.withLock { $0.signaledGeneration = rxc_fork_generation() }
    super.init()
    // The main loop's child gets its fresh pipes before anything else runs there.
    if mainThread { pthread_atfork(nil, nil) { RunLoopScheduler.main.reopenPipesIfForked() } }
  }

  deinit {
    for fd in [readFd, writeFd, stopReadFd, stopWriteFd] where fd >= 0 { _ = Glibc.close(fd) }
  }

  /// Drops the bound thread's reference to this loop (see `BoundLoop`).
  private func unbind() {
    state.withLock { s -> RunLoopBinding? in
      defer { s.binding = nil }
      return s.binding
    }?.clear(self)
  }

  /// A forked child must not share the parent's pipes: fresh ones take the same fd numbers
  /// (`fd` stays valid), and the next state change re-syncs the readable flag.
  private func reopenPipesIfForked() {
    let generation = rxc_fork_generation()
    let old = pipeGeneration.load(ordering: .acquiring)
    if old == generation { return }
    guard pipeGeneration.compareExchange(expected: old, desired: generation, ordering: .acquiringAndReleasing)
      .exchanged else { return }
    for (old, fresh) in [((readFd, writeFd), Self.makePipe()), ((stopReadFd, stopWriteFd), Self.makePipe())] {
      _ = dup2(fresh.0, old.0)
      _ = dup2(fresh.1, old.1)
      _ = fcntl(old.0, F_SETFD, FD_CLOEXEC)  // dup2 clears it
      _ = fcntl(old.1, F_SETFD, FD_CLOEXEC)
      _ = Glibc.close(fresh.0)
      _ = Glibc.close(fresh.1)
    }
  }

  private static func makePipe() -> (Int32, Int32) {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return (-1, -1) }
    for fd in fds {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    return (fds[0], fds[1])
  }

  public override var isSerial: Bool { true }

  /// Readable exactly while work is pending (do not read from it).
  public var fd: Int32 {
    reopenPipesIfForked()
    return readFd
  }

  /// True on the thread that drives this loop (for a loop not bound yet: on none).
  public var isLoopThread: Bool {
    if isMainLoop { return MainThread.isCurrent }
    return state.withLock { isBoundHere($0) }
  }

  private func isBoundHere(_ s: State) -> Bool {
    s.thread == rxc_thread_self() && s.threadGeneration == rxc_fork_generation()
  }

  /// Under the lock: may the calling thread drive the loop? Binds a loop that has no
  /// thread (or only one of the parent process) to it; `bound` then asks the caller to
  /// `recordBinding()` after unlocking.
  private func claimThread(_ s: inout State, mainThread: Bool, bound: inout Bool) -> Bool {
    if isMainLoop { return mainThread }
    if s.thread == 0 || s.threadGeneration != rxc_fork_generation() {
      // A parent's thread may have been inside a run or an action at the fork: its flags
      // went with it.
      s.busy = false
      s.looping = false
      s.thread = rxc_thread_self()
      s.threadGeneration = rxc_fork_generation()
      bound = true
      return true
    }
    return isBoundHere(s)
  }

  /// Makes this loop the bound thread's own (its `RunLoopBinding`), outside the state lock:
  /// both locks are held across fork, so they never nest (see ForkSafeMutex). A `close` in
  /// between found no record to clear, so the last check clears it.
  private func recordBinding() {
    let binding = RunLoopBinding.here
    let (recorded, replaced) = state.withLock { s -> (Bool, RunLoopBinding?) in
      guard !s.closed, isBoundHere(s) else { return (false, nil) }
      defer { s.binding = binding }
      return (true, s.binding)
    }
    withExtendedLifetime(replaced) {}  // a parent thread's record goes after unlocking
    guard recorded else { return }
    let previous = binding.set(self)
    if isClosed { binding.clear(self) }
    withExtendedLifetime(previous) {}
  }

  public override func schedule(_ action: @escaping () -> Void) -> any Disposable {
    let here = isMainLoop ? MainThread.isCurrent : true
    if here {
      // A local inline func: the closure literal stayed a call of its own per action.
      @inline(__always) func claim(_ s: inout State) -> (Bool, PipeOp) {
        if s.closed || !(isMainLoop || isBoundHere(s)) { return (false, .none) }
        let op = promoteDue(&s, now: MonotonicClock.now())
        if s.live > 0 || s.busy { return (false, op) }
        s.busy = true
        return (true, op)
      }
      let (runNow, op) = state.withLock(claim)
      apply(op)
      if runNow {
        action()
        state.withLock { $0.busy = false }
        return NopDisposable.shared
      }
    }
    return enqueue(Item(self, action))
  }

  public override func scheduleAfter(_ delay: Int64, _ action: __owned @escaping () -> Void) -> any Disposable {
    if delay <= 0 { return enqueue(Item(self, action)) }
    let item = Item(self, action)
    let due = MonotonicClock.deadline(after: delay, from: now)
    let timer = TimerThread.forThisProcess()
    let accepted = state.withLock { s -> Bool in
      if s.closed { return false }
      item.waiting = true
      s.delayed.insert(item, due: due)
      armWake(&s, on: timer)
      return true
    }
    guard accepted else { return rejected(item) }
    return item
  }

  /// Work offered to a closed loop never runs: its action (and what it holds) goes now.
  private func rejected(_ item: Item) -> Item {
    item.dispose()
    return item
  }

  private func enqueue(_ item: Item) -> Item {
    let op = state.withLock { s -> PipeOp? in
      if s.closed { return nil }
      item.ready = true
      s.ready.append(item)
      s.live += 1
      return signalChange(&s)
    }
    guard let op else { return rejected(item) }
    apply(op)
    return item
  }

  /// Moves due delayed items to the ready queue (under the lock).
  private func promoteDue(_ s: inout State, now: Int64) -> PipeOp {
    while let due = s.delayed.firstDue, due <= now {
      let top = s.delayed.popFirst().unsafelyUnwrapped
      top.item.waiting = false
      if top.item.isDisposed {
        s.delayed.droppedDisposed()
        continue
      }
      top.item.ready = true
      s.ready.append(top.item)
      s.live += 1
    }
    return signalChange(&s)
  }

  private func cancelled(_ item: Item) {
    apply(state.withLock { s -> PipeOp in
      if item.waiting {
        s.delayed.noteDisposed { $0.isDisposed && Self.leftQueue($0) }
        return .none
      }
      guard item.ready else { return .none }
      item.ready = false
      s.live -= 1
      return signalChange(&s)
    })
  }

  /// A delayed item that a sweep drops (under the lock).
  private static func leftQueue(_ item: Item) -> Bool {
    item.waiting = false
    return true
  }

  enum PipeOp { case none, set, clear }

  /// Under the lock: what the pipe must do so that it is readable exactly while live work is
  /// ready. The caller applies it after unlocking.
  private func signalChange(_ s: inout State) -> PipeOp {
    let generation = rxc_fork_generation()
    if s.signaledGeneration != generation {
      reopenPipesIfForked()
      s.signaledGeneration = generation
      s.signaled = false  // the child's new pipe is empty
    }
    let want = s.live > 0
    if want == s.signaled { return .none }
    s.signaled = want
    return want ? .set : .clear
  }

  /// The pipe I/O, outside the lock: a write wakes the loop's thread, which must not then
  /// block on a lock still held by the (possibly preempted, possibly low-priority) writer.
  /// Two decisions can reach the pipe out of order; a clear therefore re-checks afterwards
  /// (work that arrived meanwhile is signaled again: never a lost wakeup), and a byte that
  /// lands after a clear (a spurious wakeup) is removed by the next drain.
  private func apply(_ op: PipeOp) {
    var byte: UInt8 = 1
    switch op {
    case .none:
      return
    case .set:
      _ = write(writeFd, &byte, 1)
    case .clear:
      while read(readFd, &byte, 1) > 0 {}
      let again = state.withLock { s -> Bool in
        guard s.live > 0 else { return false }
        s.signaled = true
        return true
      }
      if again { _ = write(writeFd, &byte, 1) }
    }
  }

  /// Runs what is pending now (not what those actions schedule). `.wrongThread` off the
  /// loop's thread, `.nested` from inside one of its actions.
  /// `dueBy`: delayed work due after it stays queued.
  public func drain(dueBy limit: Int64 = .max) -> Result<Int, LoopError> {
    let mainThread = isMainLoop && MainThread.isCurrent
    var bound = false
    let started = state.withLock { s -> Result<(Int, PipeOp), LoopError> in
      if !claimThread(&s, mainThread: mainThread, bound: &bound) { return .failure(.wrongThread) }
      if s.busy { return .failure(.nested) }
      var op = promoteDue(&s, now: Swift.min(MonotonicClock.now(), limit))
      if s.live == 0 {
        s.signaled = false
        op = .clear  // also removes a byte a late writer left behind
      }
      s.busy = true
      return .success((s.ready.count, op))
    }
    if bound { recordBinding() }
    let count: Int
    switch started {
    case .failure(let error): return .failure(error)
    case .success(let (n, op)):
      count = n
      apply(op)
    }
    var ran = 0
    for _ in 0..<count {
      let (item, op) = state.withLock { s -> (Item?, PipeOp) in
        guard let item = s.ready.popFirst() else { return (nil, .none) }
        guard item.ready else { return (item, .none) }
        item.ready = false
        s.live -= 1
        return (item, signalChange(&s))
      }
      apply(op)
      guard let item else { break }
      if item.run() { ran += 1 }
    }
    state.withLock { $0.busy = false }
    return .success(ran)
  }

  public enum LoopError: Error { case wrongThread, nested }

  /// Runs pending and arriving work until `stop()` or, given a timeout, until it is up.
  /// `honoringStop: false` is for library-internal waits (blocking calls): they neither end
  /// on nor consume a stop, which belongs to the program's own run.
  public func run(timeout: Int64?, honoringStop: Bool = true) -> LoopStatus {
    let mainThread = isMainLoop && MainThread.isCurrent
    var bound = false
    let entered = state.withLock { s -> LoopStatus in
      if !claimThread(&s, mainThread: mainThread, bound: &bound) { return .wrongThread }
      if s.closed { return .closed }
      if s.busy || s.looping { return .nested }
      s.looping = true
      return .ok
    }
    if bound { recordBinding() }
    guard entered == .ok else { return entered }
    defer { state.withLock { $0.looping = false } }
    let deadline = timeout.map { MonotonicClock.deadline(after: $0, from: MonotonicClock.now()) }
    // The window ended (the thread may have been off the CPU well past it on a loaded
    // machine, after a drain or a wait): what fell due inside it still runs, nothing later.
    func lastDrain(_ deadline: Int64) {
      if !(honoringStop && consumeStop()) { _ = drain(dueBy: deadline) }
    }
    while true {
      if honoringStop && consumeStop() { break }
      _ = drain()
      afterLoopDrain?()
      if honoringStop && consumeStop() { break }
      let now = MonotonicClock.now()
      var waitUntil = deadline ?? Int64.max
      if let deadline, now >= deadline {
        lastDrain(deadline)
        break
      }
      let (next, closed) = state.withLock { ($0.delayed.firstDue, $0.closed) }
      if closed { break }
      if let next { waitUntil = Swift.min(waitUntil, next) }
      wait(until: waitUntil, now: now, watchStop: honoringStop)
      if let deadline, MonotonicClock.now() >= deadline {
        lastDrain(deadline)
        break
      }
    }
    return .ok
  }

  private func wait(until deadline: Int64, now: Int64, watchStop: Bool) {
    reopenPipesIfForked()
    var fds = [pollfd(fd: readFd, events: Int16(POLLIN), revents: 0),
               pollfd(fd: stopReadFd, events: Int16(POLLIN), revents: 0)]
    var ms: Int32 = -1
    if deadline != Int64.max {
      let left = Swift.max(0, deadline - now)
      ms = Int32(Swift.min((left + 999_999) / 1_000_000, Int64(Int32.max)))
    }
    _ = poll(&fds, watchStop ? 2 : 1, ms)
  }

  private func consumeStop() -> Bool {
    guard stopRequested.exchange(false, ordering: .acquiringAndReleasing) else { return false }
    var byte: UInt8 = 0
    while read(stopReadFd, &byte, 1) > 0 {}
    return true
  }

  /// Ends the current (or next) run. Any thread.
  public func stop() {
    reopenPipesIfForked()
    if stopRequested.exchange(true, ordering: .acquiringAndReleasing) { return }
    var byte: UInt8 = 1
    _ = write(stopWriteFd, &byte, 1)
  }

  /// Ends the loop for good (its last owner let go): pending and delayed work is dropped
  /// without running (what each action holds is released now), later work is refused the
  /// same way, and a run in progress returns. The main loop is never closed.
  public func close() {
    guard !isMainLoop else { return }
    reopenPipesIfForked()  // a child's clear below must not read the parent's wakeups
    let (dropped, wake) = state.withLock { s -> ([Item], ScheduledAction?) in
      s.closed = true
      var items: [Item] = []
      while let item = s.ready.popFirst() {
        item.ready = false
        items.append(item)
      }
      while let top = s.delayed.popFirst() {
        top.item.waiting = false
        items.append(top.item)
      }
      s.delayed.removeAll()
      s.live = 0
      defer {
        s.wake = nil
        s.wakeAt = .max
      }
      return (items, s.wake)
    }
    apply(.clear)
    wake?.dispose()  // its action, which holds the loop, goes now
    unbind()
    for item in dropped { item.dispose() }
    stop()
    // Also wakes a run that does not watch for stops (a blocking call's): it sees `closed`.
    var byte: UInt8 = 1
    _ = write(writeFd, &byte, 1)
  }

  /// True once `close` ran.
  public var isClosed: Bool { state.withLock { $0.closed } }
}
