import Dispatch
import Glibc
import Synchronization
import XCTest
@testable import RxCore

/// Waits up to `seconds` for `condition`, sleeping 1 ms at a time.
func waitUntil(_ seconds: Double = 5, _ condition: () -> Bool) -> Bool {
  let deadline = MonotonicClock.now() + Int64(seconds * 1e9)
  while !condition() {
    if MonotonicClock.now() > deadline { return false }
    usleep(1000)
  }
  return true
}

final class Flag: @unchecked Sendable {
  let value = Atomic<Int>(0)
  func add() { value.add(1, ordering: .relaxed) }
  var count: Int { value.load(ordering: .relaxed) }
}

final class SchedulerTests: XCTestCase {
  var start = 0
  override func setUp() {
    start = Resources.total
  }
  override func tearDown() {
    XCTAssertTrue(waitUntil(2) { Resources.total == start }, "live objects leaked")
  }

  func testMainThreadIsTheInitialThread() {
    XCTAssertTrue(MainThread.isCurrent)  // XCTest runs tests on the initial thread
    var other = true
    Thread { other = MainThread.isCurrent }.join()
    XCTAssertFalse(other)
  }

  func testTrampolineRunsFirstAtOnceAndQueuesNested() {
    var log: [String] = []
    let t = CurrentThreadScheduler.instance
    _ = t.schedule {
      log.append("A")
      _ = t.schedule {
        log.append("B")
        _ = t.schedule { log.append("D") }
        log.append("b")
      }
      _ = t.schedule { log.append("C") }
      log.append("a")
    }
    XCTAssertEqual(log, ["A", "a", "B", "b", "C", "D"])
    XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
  }

  func testTrampolineStateIsPerThread() {
    let t = CurrentThreadScheduler.instance
    let other = Flag()
    _ = t.schedule {
      // Another thread has its own (idle) trampoline: its schedule runs at once.
      let th = Thread { _ = t.schedule { other.add() } }
      th.join()
      XCTAssertEqual(other.count, 1)
    }
  }

  func testVirtualTimeSemantics() {
    let s = VirtualTimeScheduler()
    var log: [(String, Int64)] = []
    _ = s.scheduleAfter(20) { log.append(("b", s.now)) }
    _ = s.scheduleAfter(10) { log.append(("a", s.now)) }
    _ = s.scheduleAfter(20) { log.append(("c", s.now)) }
    _ = s.schedule { log.append(("z", s.now)) }
    let cancelled = s.scheduleAfter(15) { log.append(("x", s.now)) }
    cancelled.dispose()
    XCTAssertTrue(log.isEmpty)
    XCTAssertEqual(s.advance(by: 0), .ok)
    XCTAssertEqual(log.map { $0.0 }, ["z"])
    XCTAssertEqual(s.advance(to: 19), .ok)
    XCTAssertEqual(s.now, 19)
    XCTAssertEqual(s.advance(to: 3), .past)
    XCTAssertEqual(s.now, 19)
    XCTAssertEqual(s.advance(to: 20), .ok)
    XCTAssertEqual(log.map { $0.0 }, ["z", "a", "b", "c"])
    XCTAssertEqual(log.map { $0.1 }, [0, 10, 20, 20])
    _ = s.scheduleAfter(100) { XCTAssertEqual(s.advance(by: 1), .busy) }
    XCTAssertEqual(s.start(), .ok)
    XCTAssertEqual(s.now, 120)
  }

  func testPeriodicIsExactInVirtualTime() {
    let s = VirtualTimeScheduler()
    var times: [Int64] = []
    let d = s.schedulePeriodic(startAfter: 5, period: 10) { times.append(s.now) }
    XCTAssertEqual(s.advance(to: 50), .ok)
    d.dispose()
    XCTAssertEqual(s.advance(to: 100), .ok)
    XCTAssertEqual(times, [5, 15, 25, 35, 45])
  }

  func testSerialQueueRunsInOrderWithoutOverlap() {
    let q = SerialQueueScheduler(label: "t.serial")
    let inside = Atomic<Int>(0)
    let overlaps = Flag(), done = Flag()
    let order = Mutex<[Int]>([])
    for i in 0..<2000 {
      _ = q.schedule {
        if inside.add(1, ordering: .relaxed).oldValue != 0 { overlaps.add() }
        order.withLock { $0.append(i) }
        inside.subtract(1, ordering: .relaxed)
        done.add()
      }
    }
    XCTAssertTrue(waitUntil { done.count == 2000 })
    XCTAssertEqual(overlaps.count, 0)
    XCTAssertEqual(order.withLock { $0 }, Array(0..<2000))
  }

  func testOperationQueueNeverExceedsMax() {
    let q = OperationQueueScheduler(label: "t.opq", maxConcurrent: 2)
    let running = Atomic<Int>(0), maxSeen = Atomic<Int>(0)
    let done = Flag()
    for _ in 0..<30 {
      _ = q.schedule {
        let now = running.add(1, ordering: .relaxed).newValue
        var seen = maxSeen.load(ordering: .relaxed)
        while now > seen {
          let r = maxSeen.compareExchange(expected: seen, desired: now, ordering: .relaxed)
          if r.exchanged { break }
          seen = r.original
        }
        usleep(2000)
        running.subtract(1, ordering: .relaxed)
        done.add()
      }
    }
    XCTAssertTrue(waitUntil { done.count == 30 })
    XCTAssertLessThanOrEqual(maxSeen.load(ordering: .relaxed), 2)
  }

  func testDisposeBeforeRunKeepsActionFromRunning() {
    final class Witness { let flag: Flag; init(_ f: Flag) { flag = f }; deinit { flag.add() } }
    let ran = Flag(), freed = Flag()
    let schedulers: [Scheduler] = [
      SerialQueueScheduler(label: "a"), ConcurrentQueueScheduler(label: "b"),
      OperationQueueScheduler(label: "c", maxConcurrent: 1), NewThreadScheduler(),
      MainScheduler.instance, VirtualTimeScheduler(),
    ]
    for (i, s) in schedulers.enumerated() {
      let d: any Disposable = {
        let w = Witness(freed)
        return s.scheduleAfter(20_000_000) { _ = w; ran.add() }
      }()
      d.dispose()
      XCTAssertEqual(freed.count, i + 1, "the action's captures go at dispose")
    }
    usleep(40_000)
    _ = MainScheduler.instance.drain()
    _ = (schedulers.last as! VirtualTimeScheduler).start()
    XCTAssertEqual(ran.count, 0)
  }

  /// A disposed timer leaves the process timer at once (its entry, not only its closure):
  /// 10,000 timers a minute away, disposed, leave no more entries than there were (live
  /// ones of other tests may keep as many disposed ones as they are, see TimerQueue).
  func testDisposedTimersLeaveTheProcessTimer() {
    let schedulers: [Scheduler] = [
      SerialQueueScheduler(label: "t"), ConcurrentQueueScheduler(label: "t"),
      OperationQueueScheduler(label: "t", maxConcurrent: 2), RunLoopScheduler(),
    ]
    for s in schedulers {
      let before = Timers.pendingCount
      let tokens = (0..<10_000).map { _ in s.scheduleAfter(60_000_000_000) { XCTFail("a disposed timer ran") } }
      XCTAssertGreaterThanOrEqual(Timers.pendingCount, s is RunLoopScheduler ? 1 : 10_000)
      for t in tokens { t.dispose() }
      XCTAssertLessThanOrEqual(Timers.pendingCount, 2 * before + 1)
      (s as? RunLoopScheduler)?.close()
    }
  }

  /// Timers on a serial queue run in due order (those due together in the order they were
  /// scheduled), one at a time, and never once disposed.
  func testSerialTimersRunInDueOrder() {
    let s = SerialQueueScheduler(label: "order")
    let order = Mutex<[Int]>([])
    let inside = Atomic<Int>(0), overlaps = Atomic<Int>(0)
    var tokens: [any Disposable] = []
    for i in 0..<30 {
      let slot = (i * 7) % 15
      tokens.append(s.scheduleAfter(10_000_000 + Int64(slot) * 2_000_000) {
        if inside.add(1, ordering: .relaxed).oldValue != 0 { overlaps.add(1, ordering: .relaxed) }
        order.withLock { $0.append(i) }
        usleep(100)
        inside.subtract(1, ordering: .relaxed)
      })
    }
    for i in stride(from: 1, to: 30, by: 4) { tokens[i].dispose() }
    let expected = (0..<30).filter { $0 % 4 != 1 }.sorted { ($0 * 7) % 15 < ($1 * 7) % 15 || (($0 * 7) % 15 == ($1 * 7) % 15 && $0 < $1) }
    XCTAssertTrue(waitUntil(5) { order.withLock { $0.count } == expected.count })
    usleep(60_000)
    XCTAssertEqual(order.withLock { $0 }, expected)
    XCTAssertEqual(overlaps.load(ordering: .relaxed), 0)
  }

  func testMainRunsAtOnceOnMainWhenIdleElseQueues() {
    let main = MainScheduler.instance
    var log: [String] = []
    _ = main.schedule {
      log.append("outer")
      _ = main.schedule { log.append("nested") }
      XCTAssertEqual(main.drain().error, .nested)  // nested drain refused
    }
    XCTAssertEqual(log, ["outer"])
    XCTAssertEqual(main.drain().count, 1)
    XCTAssertEqual(log, ["outer", "nested"])
    let fromThread = Flag()
    Thread { _ = main.schedule { fromThread.add() } }.join()
    XCTAssertEqual(fromThread.count, 0)
    var p = pollfd(fd: main.fd, events: Int16(POLLIN), revents: 0)
    XCTAssertEqual(poll(&p, 1, 0), 1)
    XCTAssertEqual(main.drain().count, 1)
    XCTAssertEqual(fromThread.count, 1)
    XCTAssertEqual(poll(&p, 1, 0), 0)
    Thread { XCTAssertEqual(main.run(timeout: 0), .wrongThread) }.join()
  }

  /// `run(timeout:)` when the thread stalls right after a drain until past its window (it
  /// was taken off the CPU): work that fell due inside the window still runs before it
  /// returns; work due after the window does not.
  func testMainRunForRunsWhatFellDueWhenStalledPastTheWindow() {
    let main = MainScheduler.instance
    let inside = Flag(), after = Flag()
    let d1 = main.scheduleAfter(5_000_000) { inside.add() }
    let d2 = main.scheduleAfter(2_000_000_000) { after.add() }
    var stalls = 0
    main.afterLoopDrain = {
      stalls += 1
      if stalls == 1 { usleep(60_000) }  // from before the first due time to past the window
    }
    defer { main.afterLoopDrain = nil }
    XCTAssertEqual(main.run(timeout: 20_000_000), .ok)
    XCTAssertEqual(stalls, 1)  // no second turn: the window had ended
    XCTAssertEqual(inside.count, 1)
    XCTAssertEqual(after.count, 0)
    d1.dispose()
    d2.dispose()
  }
}

extension Result where Success == Int, Failure == RunLoopScheduler.LoopError {
  /// A drain's count (nil when it was refused) and its refusal.
  var count: Int? { if case .success(let n) = self { return n } else { return nil } }
  var error: RunLoopScheduler.LoopError? { if case .failure(let e) = self { return e } else { return nil } }
}

/// A minimal joinable pthread for tests.
final class Thread {
  private var tid = pthread_t()
  private let body: () -> Void

  init(_ body: @escaping () -> Void) {
    self.body = body
    let arg = Unmanaged.passRetained(self).toOpaque()
    pthread_create(&tid, nil, { arg in
      let t = Unmanaged<Thread>.fromOpaque(arg!).takeRetainedValue()
      t.body()
      return nil
    }, arg)
  }

  func join() { pthread_join(tid, nil) }
}
