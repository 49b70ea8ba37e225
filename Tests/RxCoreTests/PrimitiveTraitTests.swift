import XCTest
@testable import RxCore

/// asSingle, asMaybe, asCompletable: the cases of RxSwift's Observable+PrimitiveSequenceTest
/// (empty, one, many, an error before and after an element), generic and for Value.
final class PrimitiveTraitTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertEqual(Resources.total, start, "live objects leaked") }

  private func run(_ make: (Observable<Int>) -> Observable<Int>, _ push: (HotSource<Int>) -> Void)
    -> (r: Recorder<Int>, src: HotSource<Int>)
  {
    let src = HotSource<Int>()
    let r = Recorder<Int>()
    let d = make(src.observable).subscribe(r)
    push(src)
    d.dispose()
    src.end()
    return (r, src)
  }

  func testSingle() {
    var (r, src) = run({ $0.asSingle() }) { $0.completed() }
    XCTAssertEqual(r.failedWith as? RxError, .noElements)
    XCTAssertEqual(src.disposals, 1)

    (r, src) = run({ $0.asSingle() }) { $0.next(2); $0.completed() }
    XCTAssertEqual(r.elements, [2])
    XCTAssertTrue(r.completed)

    (r, src) = run({ $0.asSingle() }) { s in
      s.next(2)
      s.next(3)
      XCTAssertEqual(s.disposals, 1)  // disposed at the violation, not at completion
      s.completed()
    }
    XCTAssertEqual(r.elements, [])
    XCTAssertEqual(r.failedWith as? RxError, .moreThanOneElement)
    XCTAssertEqual(r.events.count, 1)

    (r, src) = run({ $0.asSingle() }) { $0.next(2); $0.error(OpTestError(code: 1)) }
    XCTAssertEqual(r.elements, [])
    XCTAssertEqual(r.errorCode, 1)
  }

  func testMaybe() {
    var (r, _) = run({ $0.asMaybe() }) { $0.completed() }
    XCTAssertEqual(r.events.count, 1)
    XCTAssertTrue(r.completed)

    (r, _) = run({ $0.asMaybe() }) { $0.next(2); $0.completed() }
    XCTAssertEqual(r.elements, [2])
    XCTAssertTrue(r.completed)

    (r, _) = run({ $0.asMaybe() }) { $0.next(2); $0.next(3); $0.completed() }
    XCTAssertEqual(r.failedWith as? RxError, .moreThanOneElement)
    XCTAssertEqual(r.events.count, 1)

    (r, _) = run({ $0.asMaybe() }) { $0.error(OpTestError(code: 2)) }
    XCTAssertEqual(r.errorCode, 2)
  }

  func testCompletable() {
    var (r, _) = run({ $0.asCompletable() }) { $0.completed() }
    XCTAssertTrue(r.completed)
    XCTAssertEqual(r.events.count, 1)

    (r, _) = run({ $0.asCompletable() }) { s in
      s.next(1)
      XCTAssertEqual(s.disposals, 1)
    }
    XCTAssertEqual(r.failedWith as? RxError, .unexpectedElement)
    XCTAssertEqual(r.events.count, 1)

    (r, _) = run({ $0.asCompletable() }) { $0.error(OpTestError(code: 3)) }
    XCTAssertEqual(r.errorCode, 3)
  }

  func testValueOverloadsBuildTheLeaves() {
    let ints: (Int64...) -> Observable<Value> = { Observable.from($0.map { .int($0) }) }
    let single = ints(7).asSingle()
    XCTAssertTrue(single is ValuePrimitiveTraitProducer)
    let r = Recorder<Value>()
    _ = single.subscribe(r)
    XCTAssertEqual(r.elements.count, 1)
    XCTAssertTrue(r.completed)

    let many = Recorder<Value>()
    _ = ints(1, 2).asMaybe().subscribe(many)
    XCTAssertEqual(many.failedWith as? RxError, .moreThanOneElement)

    let none = Recorder<Value>()
    _ = ints().asCompletable().subscribe(none)
    XCTAssertTrue(none.completed)
    XCTAssertTrue(ints().asCompletable() is ValuePrimitiveTraitProducer)
  }
}
