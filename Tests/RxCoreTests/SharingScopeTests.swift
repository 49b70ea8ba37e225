import XCTest
@testable import RxCore

/// share(replay:scope: .forever), replayAll, multicast through one subject, and the replay
/// relay: generic (Int, hot sources driven by hand) and through the Value leaves.
final class SharingScopeTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertEqual(Resources.total, start, "live objects leaked") }

  func testShareForeverReplaysAcrossReconnections() {
    let source = HotSource<Int>()
    let shared = source.observable.share(replay: 2, scope: .forever)
    let a = Recorder<Int>()
    let da = shared.subscribe(a)
    source.next(1); source.next(2); source.next(3)
    da.dispose()
    XCTAssertEqual(source.disposals, 1)
    let b = Recorder<Int>()
    let db = shared.subscribe(b)
    XCTAssertEqual(source.subscriptions, 2)
    source.next(4)
    XCTAssertEqual(b.elements, [2, 3, 4])
    db.dispose()
    source.end()
  }

  func testShareForeverAfterTheEndGivesReplayAndCompletionWithoutResubscribing() {
    let source = HotSource<Int>()
    let shared = source.observable.share(replay: 1, scope: .forever)
    let a = Recorder<Int>()
    _ = shared.subscribe(a)
    source.next(1); source.next(2)
    source.completed()
    let late = Recorder<Int>()
    _ = shared.subscribe(late)
    XCTAssertEqual(late.elements, [2])
    XCTAssertTrue(late.completed)
    XCTAssertEqual(source.subscriptions, 1)
    source.end()
  }

  func testShareForeverErrorAndReplayZero() {
    let source = HotSource<Int>()
    let shared = source.observable.share(replay: 0, scope: .forever)
    _ = shared.subscribe(Recorder<Int>())
    source.next(1)
    source.error(OpTestError(code: 9))
    let late = Recorder<Int>()
    _ = shared.subscribe(late)
    XCTAssertEqual(late.elements, [])
    XCTAssertEqual(late.errorCode, 9)
    XCTAssertEqual(source.subscriptions, 1)
    source.end()
  }

  func testWhileConnectedScopeStartsAfresh() {
    let source = HotSource<Int>()
    let shared = source.observable.share(replay: 1, scope: .whileConnected)
    _ = shared.subscribe(Recorder<Int>())
    source.next(1)
    source.completed()
    let late = Recorder<Int>()
    let d = shared.subscribe(late)
    XCTAssertEqual(source.subscriptions, 2)
    XCTAssertEqual(late.elements, [])
    d.dispose()
    source.end()
  }

  func testReplayAllFreshPerConnection() {
    let source = HotSource<Value>()
    let connectable = source.observable.replayAll()
    XCTAssertTrue(connectable is ValueConnectableObservable)
    let connection = connectable.connect()
    for i in 1...5 { source.next(.int(Int64(i))) }
    let a = Recorder<Value>()
    let da = connectable.subscribe(a)
    XCTAssertEqual(a.elements.count, 5)
    connection.dispose()
    da.dispose()
    let again = connectable.connect()
    let b = Recorder<Value>()
    let db = connectable.subscribe(b)
    XCTAssertEqual(b.elements.count, 0)  // the new connection's subject is empty
    again.dispose()
    db.dispose()
    source.end()
  }

  func testMulticastKeepsOneSubjectAndStopsConnectingAfterItsEnd() {
    let source = HotSource<Int>()
    let subject = ReplaySubject<Int>(bufferSize: 3)
    let connectable = source.observable.multicast(subject)
    let first = connectable.connect()
    source.next(1)
    first.dispose()
    let second = connectable.connect()
    source.next(2)
    source.completed()
    XCTAssertEqual(source.subscriptions, 2)
    let late = Recorder<Int>()
    _ = connectable.subscribe(late)
    XCTAssertEqual(late.elements, [1, 2])
    XCTAssertTrue(late.completed)
    let third = connectable.connect()
    XCTAssertTrue(third.isDisposed)
    XCTAssertEqual(source.subscriptions, 2)
    second.dispose()
    subject.dispose()
    source.end()
  }

  func testReplayRelayReplaysAndNeverTerminates() {
    let r = ReplayRelay<Int>(bufferSize: 2)
    r.accept(1); r.accept(2); r.accept(3)
    let a = EventLog()
    let da = r.subscribe(a)
    XCTAssertEqual(a.records, [.next(2), .next(3)])
    r.accept(4)
    XCTAssertEqual(a.records, [.next(2), .next(3), .next(4)])
    let all = ReplayRelay<Int>.createUnbounded()
    for i in 0..<10 { all.accept(i) }
    let b = EventLog()
    all.subscribe(b).dispose()
    XCTAssertEqual(b.records, (0..<10).map { .next($0) })
    r.dispose()
    XCTAssertEqual(r.accept(5), .afterDispose)
    XCTAssertEqual(a.records.last, .dropped)
    da.dispose()
    all.dispose()
  }
}
