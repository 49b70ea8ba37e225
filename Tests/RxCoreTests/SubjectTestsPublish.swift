import XCTest
@testable import RxCore

/// Cases of RxSwift's PublishSubjectTest, written out in sequence instead of virtual time.
final class SubjectTestsPublish: SubjectTestCase {
  func testHasObserversNoObservers() {
    let s = PublishSubject<Int>()
    XCTAssertFalse(s.hasObservers)
  }

  func testHasObserversOneObserver() {
    let s = PublishSubject<Int>()
    let d = s.subscribe(EventLog())
    XCTAssertTrue(s.hasObservers)
    d.dispose()
    XCTAssertFalse(s.hasObservers)
  }

  func testHasObserversManyObservers() {
    let s = PublishSubject<Int>()
    let ds = (0..<5).map { _ in s.subscribe(EventLog()) }
    XCTAssertTrue(s.hasObservers)
    for d in ds.dropLast() { d.dispose() }
    XCTAssertTrue(s.hasObservers)
    ds.last!.dispose()
    XCTAssertFalse(s.hasObservers)
  }

  func testSubscribeAtVariousPointsThenComplete() {
    let s = PublishSubject<Int>()
    s.on(.next(1))  // nobody listening: lost
    let a = EventLog(), b = EventLog(), c = EventLog()
    let da = s.subscribe(a)
    s.on(.next(2))
    let db = s.subscribe(b)
    s.on(.next(3))
    da.dispose()
    s.on(.next(4))
    let dc = s.subscribe(c)
    s.on(.next(5))
    XCTAssertEqual(s.emit(.completed), .accepted)
    XCTAssertEqual(s.emit(.next(6)), .ignoredAfterStop)
    XCTAssertEqual(a.records, [.next(2), .next(3)])
    XCTAssertEqual(b.records, [.next(3), .next(4), .next(5), .completed])
    XCTAssertEqual(c.records, [.next(5), .completed])
    XCTAssertFalse(s.hasObservers)
    db.dispose()
    dc.dispose()
  }

  func testErrorReachesObserversAndLateSubscribers() {
    let s = PublishSubject<Int>()
    let a = EventLog()
    let da = s.subscribe(a)
    s.on(.next(1))
    XCTAssertEqual(s.emit(.error(NamedError("boom"))), .accepted)
    XCTAssertEqual(s.emit(.error(NamedError("again"))), .ignoredAfterStop)
    XCTAssertEqual(s.emit(.completed), .ignoredAfterStop)
    let late = EventLog()
    let dl = s.subscribe(late)
    XCTAssertEqual(a.records, [.next(1), .error("boom")])
    XCTAssertEqual(late.records, [.error("boom")])
    da.dispose()
    dl.dispose()
  }

  func testLateSubscriberAfterCompletionGetsCompletedOnly() {
    let s = PublishSubject<Int>()
    s.on(.next(1))
    s.on(.completed)
    let late = EventLog()
    s.subscribe(late).dispose()
    XCTAssertEqual(late.records, [.completed])
  }

  func testDisposeDropsObserversAndRefusesLaterCalls() {
    let s = PublishSubject<Int>()
    let a = EventLog()
    let da = s.subscribe(a)
    s.on(.next(1))
    s.dispose()
    XCTAssertTrue(s.isDisposed)
    XCTAssertFalse(s.hasObservers)
    XCTAssertEqual(s.emit(.next(2)), .afterDispose)
    XCTAssertEqual(s.emit(.completed), .afterDispose)
    let late = EventLog()
    s.subscribe(late).dispose()
    XCTAssertEqual(a.records, [.next(1), .dropped])
    XCTAssertEqual(late.records, [.error("disposed")])
    s.dispose()  // twice: no effect
    XCTAssertEqual(a.records, [.next(1), .dropped])
    da.dispose()
  }

  func testDisposeAfterCompletionGivesDisposedToLateSubscribers() {
    let s = PublishSubject<Int>()
    s.on(.completed)
    s.dispose()
    let late = EventLog()
    s.subscribe(late).dispose()
    XCTAssertEqual(late.records, [.error("disposed")])
  }

  func testUnsubscribeDoesNotCallDropped() {
    let s = PublishSubject<Int>()
    let a = EventLog()
    s.subscribe(a).dispose()
    s.on(.next(1))
    s.dispose()
    XCTAssertEqual(a.records, [])
  }

  func testSwapRemovalKeepsTheOthers() {
    let s = PublishSubject<Int>()
    let logs = (0..<6).map { _ in EventLog() }
    let ds = logs.map { s.subscribe($0) }
    ds[0].dispose()
    ds[3].dispose()
    s.on(.next(7))
    ds[5].dispose()
    s.on(.next(8))
    XCTAssertEqual(logs.map { $0.records }, [
      [], [.next(7), .next(8)], [.next(7), .next(8)], [], [.next(7), .next(8)], [.next(7)],
    ])
    for d in ds { d.dispose() }
  }

  func testDroppedSubjectFreesItsSubscriptions() {
    let a = EventLog()
    var d: (any Disposable)?
    do {
      let s = PublishSubject<Int>()
      d = s.subscribe(a)
      s.on(.next(1))
    }
    // The subject is gone: the token no longer reaches it and does nothing.
    d!.dispose()
    d = nil
    XCTAssertEqual(a.records, [.next(1)])
  }
}
