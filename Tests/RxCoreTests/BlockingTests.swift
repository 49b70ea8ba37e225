import XCTest
@testable import RxCore

/// blockingFirst and blockingSingle: the cases of RxSwift's RxBlocking tests for first()
/// and single() (empty, one, several, an error, a real scheduler, a time-out).
final class BlockingTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  // A real scheduler's thread may still be letting go of the interval's work when the
  // blocking call returns (as in the scheduler tests): wait for it, within a bound.
  override func tearDown() { XCTAssertTrue(waitUntil(5) { Resources.total == start }, "live objects leaked") }

  private func value<E>(_ outcome: BlockingOutcome<E>) -> [E]? {
    if case .completed(let elements) = outcome { return elements }
    return nil
  }
  private func error<E>(_ outcome: BlockingOutcome<E>) -> (any Error)? {
    if case .failed(let e) = outcome { return e }
    return nil
  }
  private func timedOut<E>(_ outcome: BlockingOutcome<E>) -> Bool {
    if case .timedOut = outcome { return true }
    return false
  }

  func testFirst() {
    XCTAssertEqual(value(Observable<Int>.empty().blockingFirst(timeout: nil)), [])
    XCTAssertEqual(value(Observable.of(42, 43, 44).blockingFirst(timeout: nil)), [42])
    XCTAssertEqual((error(Observable<Int>.error(OpTestError(code: 1)).blockingFirst(timeout: nil)) as? OpTestError)?.code, 1)
    XCTAssertTrue(timedOut(Observable<Int>.never().blockingFirst(timeout: 10_000_000)))
  }

  func testFirstEndsTheSubscriptionAtTheFirstElement() {
    var disposed = 0
    let pusher = Observable<Int>.create { sink in
      sink.on(.next(7))  // and never completes
      return Disposables.create(with: { disposed += 1 })
    }
    XCTAssertEqual(value(pusher.blockingFirst(timeout: 1_000_000_000)), [7])
    XCTAssertEqual(disposed, 1)
  }

  func testFirstWithARealScheduler() {
    let scheduler = ConcurrentQueueScheduler(label: "blocking-first")
    let first = Observable<Int64>.interval(1_000_000, scheduler: scheduler).blockingFirst(timeout: 5_000_000_000)
    XCTAssertEqual(value(first), [0])
  }

  func testSingle() {
    XCTAssertEqual(error(Observable<Int>.empty().blockingSingle(timeout: nil)) as? RxError, .noElements)
    XCTAssertEqual(value(Observable.of(42).blockingSingle(timeout: nil)), [42])
    XCTAssertEqual(error(Observable.of(42, 43).blockingSingle(timeout: nil)) as? RxError, .moreThanOneElement)
    XCTAssertEqual((error(Observable<Int>.error(OpTestError(code: 2)).blockingSingle(timeout: nil)) as? OpTestError)?.code, 2)
    XCTAssertTrue(timedOut(Observable<Int>.never().blockingSingle(timeout: 10_000_000)))
  }

  func testSingleIndependent() {
    let scheduler = ConcurrentQueueScheduler(label: "blocking-single")
    for _ in 0..<10 {
      XCTAssertEqual(value(Observable.of(1).subscribe(on: scheduler).blockingSingle(timeout: 5_000_000_000)), [1])
    }
  }
}
