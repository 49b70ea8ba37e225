import XCTest
@testable import RxCore

/// Cases of RxSwift's ReplaySubjectTest (buffer sizes 1, 3 and unbounded).
final class SubjectTestsReplay: SubjectTestCase {
  private func feed(_ s: ReplaySubject<Int>, _ values: ClosedRange<Int>) {
    for v in values { s.on(.next(v)) }
  }

  func testBufferSizeOneReplaysLast() {
    let s = ReplaySubject<Int>.create(bufferSize: 1)
    feed(s, 1...5)
    let a = EventLog()
    let da = s.subscribe(a)
    s.on(.next(6))
    XCTAssertEqual(a.records, [.next(5), .next(6)])
    da.dispose()
  }

  func testBufferSizeThreeReplaysLastThree() {
    let s = ReplaySubject<Int>.create(bufferSize: 3)
    feed(s, 1...5)
    let a = EventLog()
    let da = s.subscribe(a)
    XCTAssertEqual(a.records, [.next(3), .next(4), .next(5)])
    da.dispose()
  }

  func testBufferSizeThreeWithFewerElements() {
    let s = ReplaySubject<Int>.create(bufferSize: 3)
    feed(s, 1...2)
    let a = EventLog()
    let da = s.subscribe(a)
    XCTAssertEqual(a.records, [.next(1), .next(2)])
    da.dispose()
  }

  /// A class that counts its live instances (elements the buffer must release).
  final class Counted {
    nonisolated(unsafe) static var live = 0
    let n: Int
    init(_ n: Int) {
      self.n = n
      Counted.live += 1
    }
    deinit { Counted.live -= 1 }
  }

  /// The buffer grows by realloc (elements moved by their bits) many times over, then wraps
  /// once bounded: every element replayed in order, and each released exactly once.
  func testBufferGrowthKeepsOrderAndReleasesEachElementOnce() {
    Counted.live = 0
    for limit in [Int.max, 1000] {
      let s = limit == .max ? ReplaySubject<Counted>.createUnbounded() : .create(bufferSize: limit)
      for v in 0..<5000 { s.on(.next(Counted(v))) }
      XCTAssertEqual(Counted.live, min(limit, 5000))
      let r = Recorder<Counted>()
      let d = s.subscribe(r)
      XCTAssertEqual(r.elements.map(\.n), Array((5000 - min(limit, 5000))..<5000))
      d.dispose()
      r.events = []
      s.dispose()
      XCTAssertEqual(Counted.live, 0)
    }
  }

  func testUnboundedReplaysEverything() {
    let s = ReplaySubject<Int>.createUnbounded()
    feed(s, 1...100)
    let a = EventLog()
    let da = s.subscribe(a)
    XCTAssertEqual(a.records, (1...100).map { .next($0) })
    da.dispose()
  }

  func testSubscribersAtVariousPoints() {
    let s = ReplaySubject<Int>.create(bufferSize: 3)
    let a = EventLog(), b = EventLog(), c = EventLog()
    let da = s.subscribe(a)
    feed(s, 1...4)
    let db = s.subscribe(b)
    s.on(.next(5))
    da.dispose()
    s.on(.next(6))
    s.on(.completed)
    let dc = s.subscribe(c)
    XCTAssertEqual(a.records, [.next(1), .next(2), .next(3), .next(4), .next(5)])
    XCTAssertEqual(b.records, [.next(2), .next(3), .next(4), .next(5), .next(6), .completed])
    XCTAssertEqual(c.records, [.next(4), .next(5), .next(6), .completed])
    db.dispose()
    dc.dispose()
  }

  func testLateSubscriberAfterErrorGetsBufferThenError() {
    let s = ReplaySubject<Int>.create(bufferSize: 2)
    feed(s, 1...3)
    s.on(.error(NamedError("e")))
    XCTAssertEqual(s.emit(.next(9)), .ignoredAfterStop)
    let a = EventLog()
    s.subscribe(a).dispose()
    XCTAssertEqual(a.records, [.next(2), .next(3), .error("e")])
  }

  func testDisposeFreesBufferAndGivesDisposed() {
    let s = ReplaySubject<Int>.createUnbounded()
    let a = EventLog()
    let da = s.subscribe(a)
    feed(s, 1...2)
    s.dispose()
    XCTAssertEqual(s.emit(.next(3)), .afterDispose)
    let late = EventLog()
    s.subscribe(late).dispose()
    XCTAssertEqual(a.records, [.next(1), .next(2), .dropped])
    XCTAssertEqual(late.records, [.error("disposed")])
    da.dispose()
  }

  func testSubscriberDisposingDuringReplayStopsReplay() {
    let s = ReplaySubject<Int>.createUnbounded()
    for v in 1...4 { s.on(.next(v)) }
    let b = EventLog()
    var token: (any Disposable)?
    b.onEvent = { _ in token?.dispose() }
    let x = EventLog()
    // Subscribing from inside a callback of s queues the add, so the token exists before
    // the replay to b starts; b disposes it on its first element.
    x.onEvent = { e in if case .next(5) = e { token = s.subscribe(b) } }
    let dx = s.subscribe(x)
    s.on(.next(5))
    s.on(.next(6))
    XCTAssertEqual(b.records, [.next(1)])
    XCTAssertEqual(x.records, (1...6).map { .next($0) })
    dx.dispose()
    x.onEvent = nil
    b.onEvent = nil
    token = nil
  }
}
