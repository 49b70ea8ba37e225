import XCTest
@testable import RxCore

final class SubjectTestsRelay: SubjectTestCase {
  func testPublishRelayForwardsElements() {
    let r = PublishRelay<Int>()
    let a = EventLog()
    r.accept(1)
    let da = r.subscribe(a)
    XCTAssertTrue(r.hasObservers)
    XCTAssertEqual(r.accept(2), .accepted)
    r.accept(3)
    XCTAssertEqual(a.records, [.next(2), .next(3)])
    da.dispose()
    XCTAssertFalse(r.hasObservers)
  }

  func testPublishRelayDispose() {
    let r = PublishRelay<Int>()
    let a = EventLog()
    let da = r.subscribe(a)
    r.dispose()
    XCTAssertTrue(r.isDisposed)
    XCTAssertEqual(r.accept(1), .afterDispose)
    let late = EventLog()
    r.subscribe(late).dispose()
    XCTAssertEqual(a.records, [.dropped])
    XCTAssertEqual(late.records, [.error("disposed")])
    da.dispose()
  }

  func testBehaviorRelayValueAndSubscribers() throws {
    let r = BehaviorRelay(value: 10)
    XCTAssertEqual(r.value, 10)
    let a = EventLog()
    let da = r.subscribe(a)
    r.accept(11)
    XCTAssertEqual(r.value, 11)
    XCTAssertEqual(try r.currentValue(), 11)
    let b = EventLog()
    let db = r.subscribe(b)
    r.accept(12)
    XCTAssertEqual(a.records, [.next(10), .next(11), .next(12)])
    XCTAssertEqual(b.records, [.next(11), .next(12)])
    da.dispose()
    db.dispose()
  }

  func testBehaviorRelayDispose() {
    let r = BehaviorRelay(value: 1)
    let a = EventLog()
    let da = r.subscribe(a)
    r.dispose()
    XCTAssertThrowsError(try r.currentValue()) { XCTAssertEqual($0 as? RxError, .disposed) }
    XCTAssertEqual(r.accept(2), .afterDispose)
    let late = EventLog()
    r.subscribe(late).dispose()
    XCTAssertEqual(a.records, [.next(1), .dropped])
    XCTAssertEqual(late.records, [.error("disposed")])
    da.dispose()
  }
}

final class SubjectTestsMulticast: SubjectTestCase {
  func testSubjectsServeAsMulticastSubjects() {
    let source = Observable<Int64>.range(start: 1, count: 3)
    let replayed = source.multicast { ReplaySubject<Int64>.create(bufferSize: 2) }
    let early = Recorder<Int64>()
    let d1 = replayed.subscribe(early)
    let connection = replayed.connect()
    XCTAssertEqual(early.elements, [1, 2, 3])
    XCTAssertTrue(early.completed)
    connection.dispose()
    d1.dispose()
  }
}
