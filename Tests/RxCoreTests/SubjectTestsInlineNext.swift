import Synchronization
import XCTest
@testable import RxCore

/// The inline `.next` path every subject kind takes when its drain is idle (`emitNext`):
/// re-entrant and concurrent elements still arrive in one order, and each kind's state (a
/// behavior subject's value, a replay buffer, an async subject's last element) follows.
final class SubjectTestsInlineNext: SubjectTestCase {
  /// An element emitted from inside a callback is queued behind the current one.
  private func checkReentrantOrder(_ emit: @escaping (Int) -> SubjectOutcome, _ subscribe: (EventLog) -> any Disposable,
                                   first: [Rec]) {
    var trace: [String] = []
    let a = EventLog(), b = EventLog()
    a.onEvent = { e in
      guard case .next(let v) = e, v > 0 else { return }
      trace.append("a\(v)<")
      if v == 1 {
        XCTAssertEqual(emit(2), .accepted)
        XCTAssertEqual(emit(3), .accepted)
      }
      trace.append(">a\(v)")
    }
    b.onEvent = { e in if case .next(let v) = e, v > 0 { trace.append("b\(v)") } }
    let da = subscribe(a), db = subscribe(b)
    XCTAssertEqual(emit(1), .accepted)
    XCTAssertEqual(trace, ["a1<", ">a1", "b1", "a2<", ">a2", "b2", "a3<", ">a3", "b3"])
    XCTAssertEqual(b.records, first + [.next(1), .next(2), .next(3)])
    da.dispose()
    db.dispose()
    a.onEvent = nil
  }

  func testBehaviorReentrantElementsKeepTheirOrderAndTheValueFollows() {
    let s = BehaviorSubject(value: 0)
    checkReentrantOrder({ s.emitNext($0) }, { s.subscribe($0) }, first: [.next(0)])
    XCTAssertEqual(try s.value(), 3)
  }

  func testReplayReentrantElementsKeepTheirOrderAndTheBufferFollows() {
    let s = ReplaySubject<Int>(bufferSize: 2)
    checkReentrantOrder({ s.emitNext($0) }, { s.subscribe($0) }, first: [])
    let late = EventLog()
    let d = s.subscribe(late)
    XCTAssertEqual(late.records, [.next(2), .next(3)])
    d.dispose()
  }

  func testRelaysTakeTheInlinePath() {
    let p = PublishRelay<Int>()
    checkReentrantOrder({ p.accept($0) }, { p.subscribe($0) }, first: [])
    let b = BehaviorRelay(value: 0)
    checkReentrantOrder({ b.accept($0) }, { b.subscribe($0) }, first: [.next(0)])
    XCTAssertEqual(b.value, 3)
  }

  func testAsyncKeepsTheLastInlineElement() {
    let s = AsyncSubject<Int>()
    let a = EventLog()
    let d = s.subscribe(a)
    for v in 1...5 { XCTAssertEqual(s.emitNext(v), .accepted) }
    XCTAssertEqual(a.records, [])
    s.on(.completed)
    XCTAssertEqual(a.records, [.next(5), .completed])
    XCTAssertEqual(s.emitNext(6), .ignoredAfterStop)
    d.dispose()
  }

  func testInlineNextIsRefusedAfterStopAndAfterDispose() {
    let b = BehaviorSubject(value: 0)
    b.on(.completed)
    XCTAssertEqual(b.emitNext(1), .ignoredAfterStop)
    XCTAssertEqual(try b.value(), 0)
    let r = ReplaySubject<Int>(bufferSize: 1)
    r.dispose()
    XCTAssertEqual(r.emitNext(1), .afterDispose)
  }

  func testTwoThreadsIntoAReplaySubjectLoseNothing() {
    let s = ReplaySubject<Int>.createUnbounded()
    let a = EventLog()
    let d = s.subscribe(a)
    let perThread = 20_000
    let threads = (0..<2).map { t in
      Thread { for k in 0..<perThread { s.emitNext(t * perThread + k) } }
    }
    threads.forEach { $0.join() }
    XCTAssertEqual(a.records.count, 2 * perThread)
    // Each thread's elements arrive in its own order.
    for t in 0..<2 {
      let mine = a.records.compactMap { r -> Int? in
        if case .next(let v) = r, v / perThread == t { return v } else { return nil }
      }
      XCTAssertEqual(mine, Array(t * perThread..<(t + 1) * perThread))
    }
    let late = EventLog()
    let dl = s.subscribe(late)
    XCTAssertEqual(late.records.count, 2 * perThread)
    d.dispose()
    dl.dispose()
  }
}
