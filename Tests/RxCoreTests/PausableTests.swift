import Synchronization
import XCTest
@testable import RxCore

/// pausable / pausableBuffered, driven by subjects on this thread.
final class PausableTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertTrue(waitUntil(2) { Resources.total == start }, "live objects leaked") }

  func testPausableIgnoresWhilePaused() {
    let src = PublishSubject<Int>(), pauser = PublishSubject<Bool>()
    let r = Recorder<Int>()
    let d = src.pausable(pauser).subscribe(r)
    src.on(.next(1))  // starts paused
    pauser.on(.next(true))
    src.on(.next(2))
    pauser.on(.next(false))
    src.on(.next(3))
    pauser.on(.completed)  // keeps the last state
    src.on(.next(4))
    src.on(.completed)
    XCTAssertEqual(r.elements, [2])
    XCTAssertTrue(r.completed)
    d.dispose()
  }

  func testBufferedFlushesOnResumeAndAppliesThePolicy() {
    for (policy, expected, dropped) in [
      (FlowPolicy.dropOldest, [1, 2, 4, 5, 6], [3]), (.dropNewest, [1, 2, 3, 4, 6], [5]),
      (.keepLatest, [1, 2, 5, 6], [3, 4]),
    ] {
      let src = PublishSubject<Int>(), pauser = PublishSubject<Bool>()
      let r = Recorder<Int>()
      var seen: [Int] = []
      let o = src.pausableBuffered(pauser, capacity: 2, policy: policy) { seen.append($0) }
      let d = o.subscribe(r)
      src.on(.next(1))
      pauser.on(.next(true))
      src.on(.next(2))
      pauser.on(.next(false))
      for v in 3...5 { src.on(.next(v)) }
      pauser.on(.next(true))
      src.on(.next(6))
      XCTAssertEqual(r.elements, expected, "\(policy)")
      XCTAssertEqual(seen, dropped, "\(policy)")
      XCTAssertEqual(Int(o.counters.dropped.load(ordering: .relaxed)), dropped.count)
      XCTAssertEqual(o.counters.received.load(ordering: .relaxed), 6)
      d.dispose()
    }
  }

  func testBufferedFailAndTerminalEvents() {
    let src = PublishSubject<Int>(), pauser = PublishSubject<Bool>()
    let r = Recorder<Int>()
    var seen: [Int] = []
    let d = src.pausableBuffered(pauser, capacity: 2, policy: .fail) { seen.append($0) }.subscribe(r)
    for v in 1...3 { src.on(.next(v)) }
    XCTAssertEqual(seen, [3, 1, 2])  // the value, then the buffer
    XCTAssertEqual((r.events.last?.error as? RxError), .overflow)
    XCTAssertFalse(pauser.hasObservers)  // both sources disposed
    d.dispose()

    let src2 = PublishSubject<Int>(), pauser2 = PublishSubject<Bool>()
    let r2 = Recorder<Int>()
    let d2 = src2.pausableBuffered(pauser2, capacity: 4, policy: .dropOldest).subscribe(r2)
    src2.on(.next(1))
    src2.on(.next(2))
    src2.on(.completed)  // never resumed: the buffer first, then completed
    XCTAssertEqual(r2.elements, [1, 2])
    XCTAssertTrue(r2.completed)
    d2.dispose()
  }

  func testValuePauserOfAnotherKindFails() {
    let src = PublishSubject<Value>(), pauser = PublishSubject<Value>()
    let r = Recorder<Value>()
    let d = src.pausable(pauser).subscribe(r)
    pauser.on(.next(.bool(true)))
    src.on(.next(.int(7)))
    pauser.on(.next(.int(1)))
    XCTAssertEqual(r.events.count, 2)
    XCTAssertEqual((r.events.last?.error as? RxError), .typeMismatch)
    d.dispose()
  }
}
