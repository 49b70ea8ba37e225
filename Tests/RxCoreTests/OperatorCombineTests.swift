import XCTest
@testable import RxCore

final class OperatorCombineTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertEqual(Resources.total, start, "live objects leaked") }

  func testCombineLatestFollowsRxSwiftCompletion() {
    let a = HotSource<Int>(), b = HotSource<Int>()
    let r = Recorder<[Int]>()
    let d = Observable.combineLatest([a.observable, b.observable]) { $0 }.subscribe(r)
    a.next(1)
    b.next(10)
    a.next(2)
    a.completed()
    b.next(20)
    XCTAssertEqual(r.elements, [[1, 10], [2, 10], [2, 20]])
    XCTAssertFalse(r.completed)
    b.completed()
    XCTAssertTrue(r.completed)
    d.dispose()
    a.end(); b.end()
  }

  func testZipPairsByIndex() {
    let r = Recorder<Int64>()
    _ = Observable.zip([Observable.range(start: 1, count: 3), Observable.range(start: 10, count: 2)]) {
      $0.reduce(0, +)
    }.subscribe(r)
    XCTAssertEqual(r.elements, [11, 13])
    XCTAssertTrue(r.completed)
  }

  func testMergeFromThreadsIsSerialized() {
    let sources = (0..<4).map { _ in HotSource<Int>() }
    final class Counting: Observer<Int>, @unchecked Sendable {
      var inside = 0, overlaps = 0, count = 0, completed = 0
      override func on(_ event: Event<Int>) {
        inside += 1
        if inside > 1 { overlaps += 1 }
        if case .next = event { count += 1 } else { completed += 1 }
        inside -= 1
      }
    }
    let c = Counting()
    let d = Observable.merge(sources.map { $0.observable }).subscribe(c)
    let sinks = sources.map { $0.sink! }
    DispatchQueueConcurrentPerform(4) { i in
      for v in 0..<10_000 { sinks[i].on(.next(v)) }
      sinks[i].on(.completed)
    }
    XCTAssertEqual(c.count, 40_000)
    XCTAssertEqual(c.overlaps, 0)
    XCTAssertEqual(c.completed, 1)
    d.dispose()
    sources.forEach { $0.end() }
  }

  func testTakeUntilAndAmb() {
    let src = HotSource<Int>(), stop = HotSource<Void>()
    let r = Recorder<Int>()
    let d = src.observable.take(until: stop.observable).subscribe(r)
    src.next(1)
    stop.next(())
    src.next(2)
    XCTAssertEqual(r.elements, [1])
    XCTAssertTrue(r.completed)
    d.dispose()
    src.end(); stop.end()

    let x = HotSource<Int>(), y = HotSource<Int>()
    let a = Recorder<Int>()
    let d2 = Observable.amb([x.observable, y.observable]).subscribe(a)
    y.next(5)
    x.next(6)
    XCTAssertEqual(a.elements, [5])
    XCTAssertEqual(x.disposals, 1)
    d2.dispose()
    x.end(); y.end()
  }
}
