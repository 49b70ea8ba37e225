import Glibc
import Synchronization
import XCTest
@_spi(RxC) @testable import RxCore

/// RunLoopScheduler off the main thread, and the own-thread executors the schedulers use in
/// a forked child (ThreadPool, TimerThread), exercised directly.
final class RunLoopTests: XCTestCase {
  var start = 0
  override func setUp() {
    start = Resources.total
  }
  override func tearDown() {
    XCTAssertTrue(waitUntil(2) { Resources.total == start }, "live objects leaked")
  }

  private func readable(_ fd: Int32) -> Bool {
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&p, 1, 0) == 1
  }

  func testLoopIsBoundToTheFirstThreadThatDrivesIt() {
    let loop = RunLoopScheduler()
    XCTAssertFalse(loop.isMainLoop)
    XCTAssertTrue(loop.isSerial)
    let ran = Flag()
    _ = loop.schedule { ran.add() }  // not bound yet: queued, even on this thread
    XCTAssertEqual(ran.count, 0)
    XCTAssertTrue(readable(loop.fd))
    var onLoop: [String] = []
    Thread {
      XCTAssertFalse(loop.isLoopThread)
      XCTAssertEqual(loop.drain().count, 1)  // binds
      XCTAssertTrue(loop.isLoopThread)
      _ = loop.schedule { onLoop.append("at once") }  // bound here and idle
      XCTAssertEqual(onLoop, ["at once"])
      _ = loop.schedule {
        onLoop.append("outer")
        _ = loop.schedule { onLoop.append("queued") }
        XCTAssertEqual(loop.drain().error, .nested)
        XCTAssertEqual(loop.run(timeout: 0), .nested)
      }
      XCTAssertEqual(onLoop, ["at once", "outer"])
      XCTAssertEqual(loop.run(timeout: 0), .ok)
      XCTAssertEqual(onLoop, ["at once", "outer", "queued"])
    }.join()
    XCTAssertEqual(ran.count, 1)
    XCTAssertFalse(loop.isLoopThread)
    XCTAssertEqual(loop.drain().error, .wrongThread)
    XCTAssertEqual(loop.run(timeout: 0), .wrongThread)
    XCTAssertFalse(readable(loop.fd))
    loop.close()
  }

  func testDelayedWorkMakesTheFdReadableWhenDue() {
    let loop = RunLoopScheduler()
    let ran = Flag()
    let d = loop.scheduleAfter(30_000_000) { ran.add() }
    XCTAssertFalse(readable(loop.fd))
    XCTAssertTrue(waitUntil(5) { self.readable(loop.fd) })
    XCTAssertEqual(loop.drain().count, 1)
    XCTAssertEqual(ran.count, 1)
    XCTAssertFalse(readable(loop.fd))
    d.dispose()
    loop.close()
  }

  func testRunForOnAThreadRunsWorkFromOtherThreads() {
    let loop = RunLoopScheduler()
    let ran = Flag()
    let runner = Thread { XCTAssertEqual(loop.run(timeout: 2_000_000_000), .ok) }
    for _ in 0..<100 { Thread { _ = loop.schedule { ran.add() } }.join() }
    XCTAssertTrue(waitUntil(5) { ran.count == 100 })
    loop.stop()
    runner.join()
    loop.close()
  }

  func testCloseDropsPendingWorkRefusesNewAndEndsARun() {
    final class Witness { let flag: Flag; init(_ f: Flag) { flag = f }; deinit { flag.add() } }
    let loop = RunLoopScheduler()
    let ran = Flag(), freed = Flag()
    var tokens: [any Disposable] = []
    for i in 0..<4 {
      let w = Witness(freed)
      tokens.append(i % 2 == 0 ? loop.schedule { _ = w; ran.add() } : loop.scheduleAfter(1_000_000_000) { _ = w; ran.add() })
    }
    let runner = Thread { XCTAssertEqual(loop.run(timeout: nil, honoringStop: false), .ok) }
    XCTAssertTrue(waitUntil(5) { ran.count == 2 })  // the two ready ones ran
    XCTAssertEqual(freed.count, 2)
    loop.close()  // ends the run although it ignores stops
    runner.join()
    XCTAssertTrue(loop.isClosed)
    XCTAssertEqual(freed.count, 4)  // the delayed ones were dropped
    let late = Witness(freed)
    let refused = loop.schedule { _ = late; ran.add() }
    XCTAssertTrue((refused as? ScheduledAction)?.isDisposed ?? false)
    XCTAssertEqual(ran.count, 2)
    for t in tokens { t.dispose() }
  }

  func testThreadPoolKeepsOrderAndWidth() {
    for width in [1, 3] {
      let pool = ThreadPool(width: width)
      let state = Mutex((running: 0, most: 0, order: [Int]()))
      let done = Flag()
      for i in 0..<60 {
        pool.async {
          state.withLock { s in
            s.running += 1
            s.most = Swift.max(s.most, s.running)
            s.order.append(i)
          }
          usleep(500)
          state.withLock { $0.running -= 1 }
          done.add()
        }
      }
      XCTAssertTrue(waitUntil(10) { done.count == 60 })
      let (most, order) = state.withLock { ($0.most, $0.order) }
      XCTAssertLessThanOrEqual(most, width)
      if width == 1 { XCTAssertEqual(order, Array(0..<60)) } else { XCTAssertGreaterThan(most, 1) }
    }
  }

  func testTimerThreadFiresInDueOrder() {
    let timer = TimerThread.forThisProcess()
    let order = Mutex([Int]())
    let now = MonotonicClock.now()
    for (i, delay) in [30, 10, 20].enumerated() {
      timer.insert(ScheduledAction { order.withLock { $0.append(i) } }, due: now + Int64(delay) * 1_000_000,
                   target: Timers.inline)
    }
    XCTAssertTrue(waitUntil(5) { order.withLock { $0.count } == 3 })
    XCTAssertEqual(order.withLock { $0 }, [1, 2, 0])
    XCTAssertGreaterThanOrEqual(MonotonicClock.now() - now, 30_000_000)
  }
}
