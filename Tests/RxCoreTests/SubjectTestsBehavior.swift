import XCTest
@testable import RxCore

/// Cases of RxSwift's BehaviorSubjectTest.
final class SubjectTestsBehavior: SubjectTestCase {
  func testSubscriberGetsCurrentValueThenUpdates() {
    let s = BehaviorSubject(value: 100)
    let a = EventLog()
    let da = s.subscribe(a)
    s.on(.next(1))
    s.on(.next(2))
    XCTAssertEqual(a.records, [.next(100), .next(1), .next(2)])
    da.dispose()
  }

  func testLateSubscriberGetsLatestValue() {
    let s = BehaviorSubject(value: 100)
    s.on(.next(1))
    s.on(.next(2))
    let a = EventLog()
    let da = s.subscribe(a)
    s.on(.next(3))
    XCTAssertEqual(a.records, [.next(2), .next(3)])
    da.dispose()
  }

  func testSubscribeAtVariousPointsThenComplete() {
    let s = BehaviorSubject(value: 0)
    let a = EventLog(), b = EventLog(), c = EventLog()
    let da = s.subscribe(a)
    s.on(.next(1))
    let db = s.subscribe(b)
    s.on(.next(2))
    da.dispose()
    s.on(.next(3))
    s.on(.completed)
    let dc = s.subscribe(c)
    XCTAssertEqual(a.records, [.next(0), .next(1), .next(2)])
    XCTAssertEqual(b.records, [.next(1), .next(2), .next(3), .completed])
    XCTAssertEqual(c.records, [.completed])  // RxSwift: stop event only, no value
    db.dispose()
    dc.dispose()
  }

  func testValueFollowsEventsAndSurvivesCompletion() throws {
    let s = BehaviorSubject(value: 1)
    XCTAssertEqual(try s.value(), 1)
    s.on(.next(2))
    XCTAssertEqual(try s.value(), 2)
    s.on(.completed)
    XCTAssertEqual(try s.value(), 2)
    XCTAssertEqual(s.emit(.next(3)), .ignoredAfterStop)
    XCTAssertEqual(try s.value(), 2)
  }

  func testValueThrowsStreamErrorAfterError() {
    let s = BehaviorSubject(value: 1)
    let a = EventLog()
    let da = s.subscribe(a)
    s.on(.error(NamedError("bad")))
    XCTAssertThrowsError(try s.value()) { XCTAssertEqual($0 as? NamedError, NamedError("bad")) }
    let late = EventLog()
    s.subscribe(late).dispose()
    XCTAssertEqual(a.records, [.next(1), .error("bad")])
    XCTAssertEqual(late.records, [.error("bad")])
    da.dispose()
  }

  func testValueThrowsDisposedAfterDispose() {
    let s = BehaviorSubject(value: 1)
    let a = EventLog()
    let da = s.subscribe(a)
    s.dispose()
    XCTAssertThrowsError(try s.value()) { XCTAssertEqual($0 as? RxError, .disposed) }
    XCTAssertEqual(s.emit(.next(2)), .afterDispose)
    let late = EventLog()
    s.subscribe(late).dispose()
    XCTAssertEqual(a.records, [.next(1), .dropped])
    XCTAssertEqual(late.records, [.error("disposed")])
    da.dispose()
  }

  func testValueAfterErrorThenDisposeIsDisposed() {
    let s = BehaviorSubject(value: 1)
    s.on(.error(NamedError("bad")))
    s.dispose()
    XCTAssertThrowsError(try s.value()) { XCTAssertEqual($0 as? RxError, .disposed) }
  }

  func testHasObservers() {
    let s = BehaviorSubject(value: 1)
    XCTAssertFalse(s.hasObservers)
    let d = s.subscribe(EventLog())
    XCTAssertTrue(s.hasObservers)
    s.on(.completed)
    XCTAssertFalse(s.hasObservers)
    d.dispose()
  }

  func testSubscriberDisposingOnInitialValueGetsNothingMore() {
    let s = BehaviorSubject(value: 1)
    let a = EventLog()
    var d: (any Disposable)?
    a.onEvent = { _ in d?.dispose() }
    d = s.subscribe(a)
    s.on(.next(2))  // first value was delivered before d was set
    s.on(.next(3))
    XCTAssertEqual(a.records, [.next(1), .next(2)])
    d = nil
    a.onEvent = nil
  }
}
