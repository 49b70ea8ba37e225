import XCTest
@testable import RxCore

final class SkipLastTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertTrue(waitUntil(2) { Resources.total == start }, "live objects leaked") }

  func testHoldsBackTheLastCount() {
    let s = VirtualTimeScheduler()
    let src = scripted(s, [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
    let r = TimedRecorder<Int>(s)
    let d = src.skipLast(2).subscribe(r)
    XCTAssertEqual(s.advance(to: 300), .ok)
    d.dispose()
    XCTAssertEqual(r.log, ["230:1", "240:2", "250:C"])
  }

  func testZeroMirrorsAndMoreThanTheSourceEmitsNothing() {
    let s = VirtualTimeScheduler()
    let events: [Script] = [.next(10, 1), .next(20, 2), .completed(30)]
    let all = TimedRecorder<Int>(s), none = TimedRecorder<Int>(s)
    let d1 = scripted(s, events).skipLast(0).subscribe(all)
    let d2 = scripted(s, events).skipLast(5).subscribe(none)
    XCTAssertEqual(s.advance(to: 40), .ok)
    d1.dispose()
    d2.dispose()
    XCTAssertEqual(all.log, ["10:1", "20:2", "30:C"])
    XCTAssertEqual(none.log, ["30:C"])
  }

  func testErrorDropsWhatIsHeld() {
    let s = VirtualTimeScheduler()
    let r = TimedRecorder<Int>(s)
    let d = scripted(s, [.next(10, 1), .next(20, 2), .next(30, 3), .error(40)]).skipLast(1).subscribe(r)
    XCTAssertEqual(s.advance(to: 50), .ok)
    d.dispose()
    XCTAssertEqual(r.log, ["20:1", "30:2", "40:E"])
  }

  func testHeldElementsAreReleasedOnDispose() {
    final class Token {}
    weak var held: Token?
    let subject = PublishSubject<Token>()
    let r = TimedRecorder<Token>(VirtualTimeScheduler())
    let d = subject.skipLast(3).subscribe(r)
    do {
      let t = Token()
      held = t
      subject.on(.next(t))
    }
    XCTAssertNotNil(held)
    d.dispose()
    XCTAssertNil(held)
    XCTAssertEqual(r.log, [])
  }
}
