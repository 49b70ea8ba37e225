import XCTest
@testable import RxCore

final class OperatorTransformTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertEqual(Resources.total, start, "live objects leaked") }

  func testMapFilterScanChain() {
    let r = Recorder<Int64>()
    let d = Observable.range(start: 1, count: 6)
      .filter { $0 % 2 == 0 }
      .map { $0 * 10 }
      .scan(0) { $0 + $1 }
      .subscribe(r)
    XCTAssertEqual(r.elements, [20, 60, 120])
    XCTAssertTrue(r.completed)
    d.dispose()
  }

  func testMapThrowingDisposesUpstream() {
    let hot = HotSource<Int>()
    let r = Recorder<Int>()
    let d = hot.observable.map { v -> Int in
      if v == 2 { throw OpTestError(code: 7) }
      return v
    }.subscribe(r)
    hot.next(1)
    hot.next(2)
    hot.next(3)
    XCTAssertEqual(r.elements, [1])
    XCTAssertEqual(r.errorCode, 7)
    XCTAssertEqual(hot.disposals, 1)
    d.dispose()
    hot.end()
  }

  func testFlatMapMergesAndWaitsForInners() {
    let outer = HotSource<Int>()
    let a = HotSource<String>(), b = HotSource<String>()
    let inners = [a.observable, b.observable]
    let r = Recorder<String>()
    let d = outer.observable.flatMap { inners[$0] }.subscribe(r)
    outer.next(0)
    outer.next(1)
    a.next("a1")
    b.next("b1")
    outer.completed()
    a.completed()
    XCTAssertFalse(r.completed)
    b.completed()
    XCTAssertEqual(r.elements, ["a1", "b1"])
    XCTAssertTrue(r.completed)
    d.dispose()
    outer.end(); a.end(); b.end()
  }

  func testFlatMapLatestIgnoresSupersededInner() {
    let outer = HotSource<Int>()
    let a = HotSource<String>(), b = HotSource<String>()
    let inners = [a.observable, b.observable]
    let r = Recorder<String>()
    let d = outer.observable.flatMapLatest { inners[$0] }.subscribe(r)
    outer.next(0)
    a.next("a1")
    outer.next(1)
    XCTAssertEqual(a.disposals, 1)
    a.next("a2")
    b.next("b1")
    XCTAssertEqual(r.elements, ["a1", "b1"])
    d.dispose()
    XCTAssertEqual(b.disposals, 1)
    outer.end(); a.end(); b.end()
  }

  func testConcatMapIsSequentialAndIterative() {
    let r = Recorder<Int64>()
    let d = Observable.range(start: 0, count: 100_000).concatMap { Observable.just($0) }.subscribe(r)
    XCTAssertEqual(r.elements.count, 100_000)
    XCTAssertTrue(r.completed)
    d.dispose()
  }

  func testReduceAndToArray() {
    let r = Recorder<Int64>()
    _ = Observable.range(start: 1, count: 4).reduce(0) { $0 + $1 }.subscribe(r)
    XCTAssertEqual(r.elements, [10])
    let a = Recorder<[Int64]>()
    _ = Observable.range(start: 1, count: 3).toArray().subscribe(a)
    XCTAssertEqual(a.elements, [[1, 2, 3]])
  }
}
