import XCTest
@testable import RxCore

/// flatMapFirst: one inner at a time; elements arriving meanwhile are ignored unmapped.
final class FlatMapFirstTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertEqual(Resources.total, start, "live objects leaked") }

  func testIgnoresElementsWhileAnInnerIsActive() {
    let outer = HotSource<Int>()
    let inners = [HotSource<String>(), HotSource<String>(), HotSource<String>()]
    var mapped: [Int] = []
    let r = Recorder<String>()
    let d = outer.observable.flatMapFirst { v -> Observable<String> in
      mapped.append(v)
      return inners[v].observable
    }.subscribe(r)
    outer.next(0)
    inners[0].next("a")
    outer.next(1)  // ignored: inner 0 is active
    inners[0].next("b")
    inners[0].completed()
    outer.next(2)
    inners[2].next("c")
    outer.completed()
    XCTAssertFalse(r.completed)  // waits for the active inner
    inners[2].completed()
    XCTAssertEqual(mapped, [0, 2])
    XCTAssertEqual(r.elements, ["a", "b", "c"])
    XCTAssertTrue(r.completed)
    XCTAssertEqual(inners[1].subscriptions, 0)
    d.dispose()
    outer.end()
    inners.forEach { $0.end() }
  }

  func testSynchronousInnersNeverBlock() {
    let r = Recorder<Int64>()
    let d = Observable<Int64>.range(start: 1, count: 5).flatMapFirst { Observable.just($0 * 2) }.subscribe(r)
    XCTAssertEqual(r.elements, [2, 4, 6, 8, 10])
    XCTAssertTrue(r.completed)
    d.dispose()
  }

  func testValueLeafAndErrors() {
    let outer = PublishSubject<Value>()
    let inner = PublishSubject<Value>()
    let r = Recorder<Value>()
    let d = outer.asObservable().flatMapFirst { v -> Observable<Value> in
      if case .int(3) = v { throw OpTestError(code: 3) }
      return inner.asObservable()
    }.subscribe(r)
    outer.on(.next(.int(1)))
    outer.on(.next(.int(3)))  // ignored, so the selector does not throw
    inner.on(.next(.int(10)))
    inner.on(.completed)
    outer.on(.next(.int(3)))  // mapped now: the selector's error ends the stream
    XCTAssertEqual(r.elements.count, 1)
    XCTAssertEqual(r.errorCode, 3)
    d.dispose()
  }
}
