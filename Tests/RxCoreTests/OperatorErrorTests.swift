import XCTest
@testable import RxCore

final class OperatorErrorTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertEqual(Resources.total, start, "live objects leaked") }

  func testCatchSwitchesToHandlerResult() {
    let r = Recorder<Int>()
    _ = Observable.concat([Observable.just(1), Observable.error(OpTestError(code: 1))])
      .catch { _ in Observable.of(2, 3) }
      .subscribe(r)
    XCTAssertEqual(r.elements, [1, 2, 3])
    XCTAssertTrue(r.completed)
  }

  func testRetryCountsAttemptsWithoutRecursion() {
    var subscriptions = 0
    let failing = Observable<Int>.create { sink in
      subscriptions += 1
      sink.on(.error(OpTestError(code: 3)))
      return Disposables.create()
    }
    let r = Recorder<Int>()
    _ = failing.retry(50_000).subscribe(r)
    XCTAssertEqual(subscriptions, 50_000)
    XCTAssertEqual(r.errorCode, 3)
  }

  func testDoTapSeesEventsAndDisposeOnce() {
    var log: [String] = []
    let hot = HotSource<Int>()
    let r = Recorder<Int>()
    let d = hot.observable.do(onNext: { log.append("n\($0)") }, onDispose: { log.append("disposed") }).subscribe(r)
    hot.next(1)
    d.dispose()
    d.dispose()
    XCTAssertEqual(log, ["n1", "disposed"])
    hot.end()
  }

  func testMaterializeDematerialize() {
    let r = Recorder<Int>()
    _ = Observable.of(1, 2).materialize().dematerialize().subscribe(r)
    XCTAssertEqual(r.elements, [1, 2])
    XCTAssertTrue(r.completed)
  }

  func testFirstLastElementAtErrors() {
    let f = Recorder<Int>()
    _ = Observable<Int>.empty().first().subscribe(f)
    XCTAssertEqual(f.failedWith as? RxError, .noElements)
    let e = Recorder<Int>()
    _ = Observable.of(1).element(at: 3).subscribe(e)
    XCTAssertEqual(e.failedWith as? RxError, .argumentOutOfRange)
  }
}
