import Dispatch
import Synchronization
import XCTest
@testable import RxCore

/// A drain one thread keeps taking is biased to it (plain stores in and out); the first
/// other thread revokes that for good. These check the switch and the races around it.
final class BiasedDrainTests: XCTestCase {
  final class Tally: @unchecked Sendable {
    var count = 0
    var sum = 0
    func add(_ v: Int) { count += 1; sum += v }
  }

  /// Biases `drain` to the calling thread.
  func takeBias(_ drain: Drain<Int>, _ tally: Tally) {
    for _ in 0..<Drain<Int>.biasStreak { drain.submit(0, tally.add) }
  }

  func testOneThreadsStreakBiasesTheDrainAndAnotherThreadRevokesIt() {
    let drain = Drain<Int>()
    let tally = Tally()
    for _ in 0..<(Drain<Int>.biasStreak - 1) { drain.submit(1, tally.add) }
    XCTAssertFalse(drain.isBiased)
    drain.submit(1, tally.add)
    XCTAssertTrue(drain.isBiased)
    for _ in 0..<1_000 { drain.submit(1, tally.add) }
    XCTAssertEqual(drain.held.load(ordering: .relaxed), 0)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      drain.submit(1_000, tally.add)
      done.signal()
    }
    done.wait()
    XCTAssertFalse(drain.isBiased)
    XCTAssertEqual(drain.bias.load(ordering: .relaxed), Drain<Int>.revoked)
    drain.submit(1, tally.add)  // the former owner now goes by CAS
    XCTAssertEqual(tally.count, Drain<Int>.biasStreak + 1_002)
    XCTAssertEqual(tally.sum, Drain<Int>.biasStreak + 1_000 + 1_001)
    XCTAssertFalse(drain.isDraining)
  }

  /// Two threads taking turns never bias the drain.
  func testAlternatingThreadsNeverBias() {
    let drain = Drain<Int>()
    let tally = Tally()
    for _ in 0..<200 {
      drain.submit(1, tally.add)
      let done = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        drain.submit(1, tally.add)
        done.signal()
      }
      done.wait()
    }
    XCTAssertEqual(drain.bias.load(ordering: .relaxed), Drain<Int>.unbiased)
    XCTAssertEqual(tally.count, 400)
  }

  /// A revocation that finds the owner inside a handler does not wait for it (the handler
  /// waits for the revoker here), and the revoker's item runs after the current one, on the
  /// owner's thread, before the owner's submit returns.
  func testRevokerNeverWaitsForAnOwnerInsideAndItsItemRunsBeforeTheOwnerLeaves() {
    final class Log: @unchecked Sendable {
      var seen: [Int] = []
      var ranOn: [UInt] = []
      func record(_ v: Int) { seen.append(v); ranOn.append(rxcThreadSelfForTests()) }
    }
    let drain = Drain<Int>()
    let log = Log()
    takeBias(drain, Tally())
    XCTAssertTrue(drain.isBiased)
    let owner = rxcThreadSelfForTests()
    drain.submit(1) { v in
      log.record(v)
      if v != 1 { return }
      let done = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        drain.submit(7) { _ in XCTFail("a queued item runs with the holder's handler") }
        done.signal()
      }
      done.wait()  // the revoker queued its item and returned
      drain.submit(2) { _ in XCTFail("a queued item runs with the holder's handler") }  // re-entrant
    }
    XCTAssertEqual(log.seen, [1, 7, 2])
    XCTAssertEqual(log.ranOn, [owner, owner, owner])
    XCTAssertFalse(drain.isBiased)
    XCTAssertFalse(drain.isDraining)
  }

  /// The owner's re-entrant submissions run after the current item, in order, and keep the
  /// bias.
  func testReentrantSubmissionsUnderBiasRunAfterTheCurrentItem() {
    let drain = Drain<Int>()
    takeBias(drain, Tally())
    var order: [Int] = []
    func handle(_ v: Int) {
      order.append(v)
      if v < 3 { drain.submit(v + 1, handle); order.append(-v) }
    }
    drain.submit(0, handle)
    XCTAssertEqual(order, [0, 0, 1, -1, 2, -2, 3])
    XCTAssertTrue(drain.isBiased)
    XCTAssertFalse(drain.isDraining)
  }

  /// Many fresh biased drains: the owner streams while a second thread makes one submission,
  /// which revokes the bias in the middle of the stream. No handler overlaps another, no
  /// item is lost, and each thread's items keep their order.
  func testRevocationRacingTheOwnersStreamKeepsExclusionAndLosesNothing() {
    for round in 0..<400 {
      let drain = Drain<Int>()
      final class Check: @unchecked Sendable {
        let inside = Atomic<Int>(0)
        var overlaps = 0
        var count = 0
        var sum = 0
        var last = -1
        var disorder = 0
      }
      let check = Check()
      let handle: (Int) -> Void = { v in
        if check.inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 { check.overlaps += 1 }
        check.count += 1
        check.sum += v
        if v < 1_000_000 {
          if v != check.last + 1 { check.disorder += 1 }
          check.last = v
        }
        check.inside.subtract(1, ordering: .acquiringAndReleasing)
      }
      let biased = Atomic<Bool>(false)
      let foreignDone = Atomic<Bool>(false)
      let streamed = Atomic<Int>(0)
      runThreads(2) { t in
        if t == 0 {
          var n = 0
          while n < Drain<Int>.biasStreak { drain.submit(n, handle); n += 1 }
          biased.store(true, ordering: .releasing)
          while !foreignDone.load(ordering: .acquiring) || n < 2_000 {
            drain.submit(n, handle)
            n += 1
          }
          streamed.store(n, ordering: .relaxed)
        } else {
          while !biased.load(ordering: .acquiring) {}
          for _ in 0..<(round % 7) { sched_yield() }
          drain.submit(1_000_000, handle)
          foreignDone.store(true, ordering: .releasing)
        }
      }
      let n = streamed.load(ordering: .relaxed)
      XCTAssertFalse(drain.isDraining)
      if check.overlaps != 0 || check.count != n + 1 || check.sum != n * (n - 1) / 2 + 1_000_000
        || check.disorder != 0
      {
        return XCTFail(
          "round \(round): \(check.count) of \(n + 1) items, \(check.overlaps) overlaps, \(check.disorder) out of order")
      }
    }
  }

  /// Both threads keep submitting to a drain biased to one of them: exclusion holds and
  /// every item runs once.
  func testOwnerAndForeignThreadStreamingTogether() {
    let drain = Drain<Int>()
    final class Check: @unchecked Sendable {
      let inside = Atomic<Int>(0)
      var overlaps = 0
      var count = 0
    }
    let check = Check()
    let handle: (Int) -> Void = { _ in
      if check.inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 { check.overlaps += 1 }
      check.count += 1
      check.inside.subtract(1, ordering: .acquiringAndReleasing)
    }
    let biased = Atomic<Bool>(false)
    let perThread = 100_000
    runThreads(2) { t in
      if t == 0 {
        for _ in 0..<Drain<Int>.biasStreak { drain.submit(0, handle) }
        biased.store(true, ordering: .releasing)
      } else {
        while !biased.load(ordering: .acquiring) {}
      }
      for _ in 0..<perThread { drain.submit(0, handle) }
    }
    XCTAssertEqual(check.overlaps, 0)
    XCTAssertEqual(check.count, Drain<Int>.biasStreak + 2 * perThread)
    XCTAssertFalse(drain.isDraining)
  }
}
