import Dispatch
import Glibc
import Synchronization

/// Runs work on the main thread, driven by the C program: `run`, `runFor`, `drain`, or its
/// own poll/epoll loop on `fd`, which is readable exactly while work is pending.
///
/// As RxSwift's MainScheduler, `schedule` called on the main thread while nothing is queued
/// or running there runs the action at once; otherwise it enqueues. Delayed work waits in a
/// timer queue; a Dispatch timer moves it to the ready queue (and so makes `fd` readable)
/// when it is due, and `drain` also collects whatever is due by then.
public final class MainScheduler: Scheduler, @unchecked Sendable {
  public static let instance = MainScheduler()

  public enum LoopStatus { case ok, notMainThread, nested }

  final class Item: ScheduledAction, @unchecked Sendable {
    unowned let owner: MainScheduler
    var ready = false  // guarded by owner.state
    init(_ owner: MainScheduler, _ action: @escaping () -> Void) {
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
    var busy = false      // an action of ours is running on main
    var looping = false   // inside run / runFor
  }

  private let state = Mutex(State())
  private let stopRequested = Atomic<Bool>(false)
  private let readFd: Int32, writeFd: Int32
  private let stopReadFd: Int32, stopWriteFd: Int32
  private let timerQueue = DispatchQueue(label: "rxc.main-timer")
  /// Tests: runs on main right after each drain of `run`'s loop (a stall there, as a loaded
  /// machine makes one, must not lose work that falls due meanwhile).
  var afterLoopDrain: (() -> Void)?

  private override init() {
    (readFd, writeFd) = Self.makePipe()
    (stopReadFd, stopWriteFd) = Self.makePipe()
    super.init()
    pthread_atfork(nil, nil) { MainScheduler.instance.reopenPipesInChild() }
  }

  /// A forked child must not share the parent's pipes: fresh ones take the same fd numbers
  /// (rx_main_fd stays valid), and the next state change re-syncs the readable flag.
  private static let forkedChild = Atomic<Bool>(false)

  private func reopenPipesInChild() {
    for (old, fresh) in [((readFd, writeFd), Self.makePipe()), ((stopReadFd, stopWriteFd), Self.makePipe())] {
      _ = dup2(fresh.0, old.0)
      _ = dup2(fresh.1, old.1)
      _ = fcntl(old.0, F_SETFD, FD_CLOEXEC)  // dup2 clears it
      _ = fcntl(old.1, F_SETFD, FD_CLOEXEC)
      _ = close(fresh.0)
      _ = close(fresh.1)
    }
    Self.forkedChild.store(true, ordering: .releasing)
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
  public var fd: Int32 { readFd }

  public override func schedule(_ action: @escaping () -> Void) -> any Disposable {
    if MainThread.isCurrent {
      let (runNow, op) = state.withLock { s -> (Bool, PipeOp) in
        let op = promoteDue(&s, now: MonotonicClock.now())
        if s.live > 0 || s.busy { return (false, op) }
        s.busy = true
        return (true, op)
      }
      apply(op)
      if runNow {
        action()
        state.withLock { $0.busy = false }
        return NopDisposable.shared
      }
    }
    return enqueue(Item(self, action))
  }

  public override func scheduleAfter(_ delay: Int64, _ action: @escaping () -> Void) -> any Disposable {
    if delay <= 0 { return enqueue(Item(self, action)) }
    let item = Item(self, action)
    let due = MonotonicClock.deadline(after: delay, from: now)
    state.withLock { $0.delayed.insert(item, due: due) }
    timerQueue.asyncAfter(deadline: .after(delay)) { [self] in
      apply(state.withLock { promoteDue(&$0, now: MonotonicClock.now()) })
    }
    return item
  }

  private func enqueue(_ item: Item) -> Item {
    apply(state.withLock { s in
      item.ready = true
      s.ready.append(item)
      s.live += 1
      return signalChange(&s)
    })
    return item
  }

  /// Moves due delayed items to the ready queue (under the lock).
  private func promoteDue(_ s: inout State, now: Int64) -> PipeOp {
    while let top = s.delayed.first, top.due <= now {
      _ = s.delayed.popFirst()
      if top.item.isDisposed { continue }
      top.item.ready = true
      s.ready.append(top.item)
      s.live += 1
    }
    return signalChange(&s)
  }

  private func cancelled(_ item: Item) {
    apply(state.withLock { s -> PipeOp in
      guard item.ready else { return .none }
      item.ready = false
      s.live -= 1
      return signalChange(&s)
    })
  }

  enum PipeOp { case none, set, clear }

  /// Under the lock: what the pipe must do so that it is readable exactly while live work is
  /// ready. The caller applies it after unlocking.
  private func signalChange(_ s: inout State) -> PipeOp {
    if Self.forkedChild.load(ordering: .relaxed), Self.forkedChild.exchange(false, ordering: .acquiring) {
      s.signaled = false  // the child's new pipe is empty
    }
    let want = s.live > 0
    if want == s.signaled { return .none }
    s.signaled = want
    return want ? .set : .clear
  }

  /// The pipe I/O, outside the lock: a write wakes the main thread, which must not then
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

  /// Runs what is pending now (not what those actions schedule). Nil off the main thread or
  /// when called from inside a main-scheduler action.
  /// `dueBy`: delayed work due after it stays queued.
  public func drain(dueBy limit: Int64 = .max) -> Int? {
    guard MainThread.isCurrent else { return nil }
    let started = state.withLock { s -> (Int, PipeOp)? in
      if s.busy { return nil }
      var op = promoteDue(&s, now: Swift.min(MonotonicClock.now(), limit))
      if s.live == 0 {
        s.signaled = false
        op = .clear  // also removes a byte a late writer left behind
      }
      s.busy = true
      return (s.ready.count, op)
    }
    guard let (count, op) = started else { return nil }
    apply(op)
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
    return ran
  }

  /// Runs pending and arriving work until `stop()` or, given a timeout, until it is up.
  /// `honoringStop: false` is for library-internal waits (blocking calls): they neither end
  /// on nor consume a stop, which belongs to the program's own run.
  public func run(timeout: Int64?, honoringStop: Bool = true) -> LoopStatus {
    guard MainThread.isCurrent else { return .notMainThread }
    let entered = state.withLock { s -> Bool in
      if s.busy || s.looping { return false }
      s.looping = true
      return true
    }
    guard entered else { return .nested }
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
      if let next = state.withLock({ $0.delayed.first?.due }) { waitUntil = Swift.min(waitUntil, next) }
      wait(until: waitUntil, now: now, watchStop: honoringStop)
      if let deadline, MonotonicClock.now() >= deadline {
        lastDrain(deadline)
        break
      }
    }
    return .ok
  }

  private func wait(until deadline: Int64, now: Int64, watchStop: Bool) {
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
    if stopRequested.exchange(true, ordering: .acquiringAndReleasing) { return }
    var byte: UInt8 = 1
    _ = write(stopWriteFd, &byte, 1)
  }
}
