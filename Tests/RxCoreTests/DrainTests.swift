import Dispatch
import Synchronization
import XCTest
@testable import RxCore

/// The drain lets go with a plain store until a foreign thread first submits to it
/// (`Drain.mode`); these check that switch and the re-entrant path around it.
final class DrainTests: XCTestCase {
  final class Tally: @unchecked Sendable {
    var count = 0
    var sum = 0
  }

  /// Many fresh drains. One thread submits for as long as a second one has not returned
  /// from its single submission, which switches the drain to the shared protocol and races
  /// the first thread's plain-store let-go. A lost wake-up leaves that last item queued
  /// after both threads have returned.
  func testFirstForeignSubmitterNeverLosesAnItem() {
    for round in 0..<1_500 {
      let drain = Drain<Int>()
      let tally = Tally()
      let started = Atomic<Int>(0)
      let foreignDone = Atomic<Bool>(false)
      let streamed = Atomic<Int>(0)
      runThreads(2) { t in
        started.add(1, ordering: .relaxed)
        while started.load(ordering: .relaxed) < 2 {}
        if t == 0 {
          var n = 0
          while !foreignDone.load(ordering: .acquiring) {
            drain.submit(1) { tally.count += 1; tally.sum += $0 }
            n += 1
          }
          streamed.store(n, ordering: .relaxed)
        } else {
          drain.submit(1_000) { tally.count += 1; tally.sum += $0 }
          foreignDone.store(true, ordering: .releasing)
        }
      }
      XCTAssertFalse(drain.isDraining)
      let n = streamed.load(ordering: .relaxed)
      if tally.count != n + 1 || tally.sum != n + 1_000 {
        return XCTFail("round \(round): \(tally.count) of \(n + 1) items handled")
      }
    }
  }

  /// One thread's items keep their order while another thread keeps the drain busy: a thread
  /// that takes a drain another just let go must not overtake items queued before.
  func testItemsOfOneThreadAreNeverOvertaken() {
    let drain = Drain<Int>()
    final class Check: @unchecked Sendable { var last = -1; var disorder = 0; var mine = 0 }
    let check = Check()
    let n = 200_000
    let done = Atomic<Bool>(false)
    let handle: (Int) -> Void = { v in
      guard v >= 0 else { return }
      if v != check.last + 1 { check.disorder += 1 }
      check.last = v
      check.mine += 1
    }
    runThreads(2) { t in
      if t == 0 {
        for i in 0..<n { drain.submit(i, handle) }
        done.store(true, ordering: .releasing)
      } else {
        while !done.load(ordering: .acquiring) { drain.submit(-1, handle) }
      }
    }
    XCTAssertEqual(check.mine, n)
    XCTAssertEqual(check.disorder, 0)
  }

  /// A handler's own submissions run after it, in order, and do not make the drain shared.
  func testReentrantSubmissionsRunAfterTheCurrentItemAndStayUnshared() {
    let drain = Drain<Int>()
    var order: [Int] = []
    func handle(_ v: Int) {
      order.append(v)
      if v < 3 { drain.submit(v + 1, handle); order.append(-v) }
    }
    drain.submit(0, handle)
    XCTAssertEqual(order, [0, 0, 1, -1, 2, -2, 3])
    XCTAssertEqual(drain.mode.load(ordering: .relaxed), 0)
    XCTAssertFalse(drain.isDraining)
  }

  /// A submission from another thread while one is held switches the drain for good, and
  /// the item runs on the holder's thread before it lets go.
  func testForeignSubmissionWhileHeldIsDrainedByTheHolder() {
    final class Log: @unchecked Sendable {
      var seen: [Int] = []
      var ranOn: [UInt] = []
      func record(_ v: Int) { seen.append(v); ranOn.append(rxcThreadSelfForTests()) }
    }
    let drain = Drain<Int>()
    let log = Log()
    let holderThread = rxcThreadSelfForTests()
    drain.submit(0) { v in
      log.record(v)
      if v != 0 { return }
      let done = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        drain.submit(7) { _ in XCTFail("a queued item runs with the holder's handler") }
        done.signal()
      }
      done.wait()  // the foreign submitter queued its item and returned
    }
    XCTAssertEqual(log.seen, [0, 7])
    XCTAssertEqual(log.ranOn, [holderThread, holderThread])
    XCTAssertEqual(drain.mode.load(ordering: .relaxed), 2)
    XCTAssertFalse(drain.isDraining)
  }

  /// Three threads flood a drain whose items take longer to handle than to submit. Without
  /// the backlog wait the queue grows by about two items of every three (tens of thousands
  /// here); with it, the holder never finds more than `backlogLimit` waiting, plus what
  /// submitters add after a 2 ms wait ran out (a holder descheduled that long on a loaded
  /// machine), for which the bound leaves another `backlogLimit`.
  func testFloodingThreadsKeepTheBacklogBounded() {
    final class Watch: @unchecked Sendable {
      var maxQueued = 0
      var handled = 0
      var last = [Int](repeating: -1, count: 4)
      var disorder = 0
    }
    let drain = Drain<Int>()
    let watch = Watch()
    let perThread = 40_000
    let handle: (Int) -> Void = { v in
      watch.maxQueued = max(watch.maxQueued, drain.queued.load(ordering: .relaxed))
      let (thread, i) = (v / perThread, v % perThread)
      if i != watch.last[thread] + 1 { watch.disorder += 1 }
      watch.last[thread] = i
      watch.handled += 1
      var spin = 0
      for k in 0..<200 { spin &+= k }  // slower than a submission
      _ = Atomic<Int>(spin)
    }
    runThreads(4) { t in
      for i in 0..<perThread { drain.submit(t * perThread + i, handle) }
    }
    XCTAssertFalse(drain.isDraining)
    XCTAssertEqual(watch.handled, 4 * perThread)
    XCTAssertEqual(watch.disorder, 0)
    XCTAssertLessThanOrEqual(watch.maxQueued, 2 * Drain<Int>.backlogLimit)
  }

  /// A submitter never waits on a holder for ever: here the holder's handler waits for the
  /// submitter to return, with the backlog over its limit. Each submission past the limit
  /// waits its 2 ms and returns; then the holder handles everything, in order.
  func testBacklogWaitEndsWhenTheHolderWaitsForTheSubmitter() {
    final class Log: @unchecked Sendable { var seen: [Int] = [] }
    let drain = Drain<Int>()
    let log = Log()
    let extra = 5
    let total = Drain<Int>.backlogLimit + extra
    let started = MonotonicClock.now()
    drain.submit(-1) { v in
      log.seen.append(v)
      if v != -1 { return }
      let done = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        for i in 0..<total { drain.submit(i) { _ in } }
        done.signal()
      }
      done.wait()  // returns: every submission past the limit gave up waiting
    }
    XCTAssertGreaterThanOrEqual(MonotonicClock.now() - started, Int64(extra) * 2_000_000)
    XCTAssertEqual(log.seen, [-1] + Array(0..<total))
    XCTAssertFalse(drain.isDraining)
  }
}

import Glibc
func rxcThreadSelfForTests() -> UInt { UInt(pthread_self()) }
