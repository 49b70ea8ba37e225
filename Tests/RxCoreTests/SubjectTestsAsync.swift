import XCTest
@testable import RxCore

/// Cases of RxSwift's AsyncSubjectTest.
final class SubjectTestsAsync: SubjectTestCase {
  func testLastValueThenCompletedOnCompletion() {
    let s = AsyncSubject<Int>()
    let a = EventLog(), b = EventLog()
    let da = s.subscribe(a)
    s.on(.next(1))
    s.on(.next(2))
    let db = s.subscribe(b)
    s.on(.next(3))
    XCTAssertEqual(a.records, [])
    XCTAssertEqual(s.emit(.completed), .accepted)
    XCTAssertEqual(a.records, [.next(3), .completed])
    XCTAssertEqual(b.records, [.next(3), .completed])
    XCTAssertEqual(s.emit(.next(4)), .ignoredAfterStop)
    let late = EventLog()
    s.subscribe(late).dispose()
    XCTAssertEqual(late.records, [.next(3), .completed])
    da.dispose()
    db.dispose()
  }

  func testEmptyGivesCompletedOnly() {
    let s = AsyncSubject<Int>()
    let a = EventLog()
    let da = s.subscribe(a)
    s.on(.completed)
    let late = EventLog()
    s.subscribe(late).dispose()
    XCTAssertEqual(a.records, [.completed])
    XCTAssertEqual(late.records, [.completed])
    da.dispose()
  }

  func testErrorGivesErrorWithoutValue() {
    let s = AsyncSubject<Int>()
    let a = EventLog()
    let da = s.subscribe(a)
    s.on(.next(1))
    s.on(.error(NamedError("x")))
    XCTAssertEqual(s.emit(.completed), .ignoredAfterStop)
    let late = EventLog()
    s.subscribe(late).dispose()
    XCTAssertEqual(a.records, [.error("x")])
    XCTAssertEqual(late.records, [.error("x")])
    da.dispose()
  }

  func testUnsubscribedObserverGetsNothing() {
    let s = AsyncSubject<Int>()
    let a = EventLog()
    let da = s.subscribe(a)
    s.on(.next(1))
    da.dispose()
    s.on(.completed)
    XCTAssertEqual(a.records, [])
  }

  func testDispose() {
    let s = AsyncSubject<Int>()
    let a = EventLog()
    let da = s.subscribe(a)
    s.on(.next(1))
    s.dispose()
    XCTAssertEqual(s.emit(.completed), .afterDispose)
    let late = EventLog()
    s.subscribe(late).dispose()
    XCTAssertEqual(a.records, [.dropped])
    XCTAssertEqual(late.records, [.error("disposed")])
    da.dispose()
  }

  func testHasObservers() {
    let s = AsyncSubject<Int>()
    let d = s.subscribe(EventLog())
    XCTAssertTrue(s.hasObservers)
    s.on(.next(1))
    XCTAssertTrue(s.hasObservers)
    s.on(.completed)
    XCTAssertFalse(s.hasObservers)
    d.dispose()
  }
}
