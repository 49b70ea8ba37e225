import XCTest
@testable import RxCore

final class TimestampTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertTrue(waitUntil(2) { Resources.total == start }, "live objects leaked") }

  func testPairsEachElementWithTheSchedulersClock() {
    let s = VirtualTimeScheduler()
    let src = scripted(s, [.next(10, 7), .next(25, 8), .completed(40)])
    let r = TimedRecorder<String>(s)
    let d = src.timestamp(scheduler: s).map { "\($0.time)=\($0.element)" }.subscribe(r)
    XCTAssertEqual(s.advance(to: 50), .ok)
    d.dispose()
    XCTAssertEqual(r.log, ["10:10=7", "25:25=8", "40:C"])
  }

  func testPackedFormAndErrors() {
    let s = VirtualTimeScheduler()
    let src = scripted(s, [.next(5, 1), .error(15)])
    let r = TimedRecorder<Int64>(s)
    let d = src.timestamp(scheduler: s) { time, v in time * 100 + Int64(v) }.subscribe(r)
    XCTAssertEqual(s.advance(to: 20), .ok)
    d.dispose()
    XCTAssertEqual(r.log, ["5:501", "15:E"])
  }

  func testDisposeStopsDelivery() {
    let s = VirtualTimeScheduler()
    let src = scripted(s, [.next(10, 1), .next(30, 2), .completed(40)])
    let r = TimedRecorder<Int64>(s)
    let d = src.timestamp(scheduler: s) { time, _ in time }.subscribe(r)
    XCTAssertEqual(s.advance(to: 20), .ok)
    d.dispose()
    XCTAssertEqual(s.advance(to: 50), .ok)
    XCTAssertEqual(r.log, ["10:10"])
  }
}
