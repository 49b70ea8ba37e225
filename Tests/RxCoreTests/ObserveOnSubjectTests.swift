import Glibc
import Synchronization
import XCTest
@testable import RxCore

/// observe_on under subjects, which deliver through `Observer.onNext(at:)` (publish) and
/// `Observer.onNext(contentsOf:)` (a replay subject's buffer): ObserveOnSink overrides both.
final class ObserveOnSubjectTests: XCTestCase {
  typealias Recorder = SchedulerOperatorTests.ThreadRecorder
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertTrue(waitUntil(5) { Resources.total == start }, "live objects leaked") }

  func testPublishSubjectThroughObserveOnKeepsOrderAndCompletes() {
    for scheduler in [SerialQueueScheduler(label: "p1") as Scheduler, ConcurrentQueueScheduler(label: "p2")] {
      let subject = PublishSubject<Int64>()
      let r = Recorder()
      let d = subject.observe(on: scheduler).subscribe(r)
      for i in 0..<Int64(100_000) { subject.on(.next(i)) }
      subject.on(.completed)
      XCTAssertTrue(waitUntil(10) { r.completed.load(ordering: .acquiring) })
      XCTAssertEqual(r.expected, 100_000)
      XCTAssertEqual(r.outOfOrder, 0)
      XCTAssertEqual(r.onMain, 0)
      d.dispose()
    }
  }

  func testReplayedBufferThroughObserveOnKeepsOrderThenLiveEvents() {
    for scheduler in [SerialQueueScheduler(label: "r1") as Scheduler, ConcurrentQueueScheduler(label: "r2")] {
      let subject = ReplaySubject<Int64>.create(bufferSize: 3000)
      for i in 0..<Int64(3000) { subject.on(.next(i)) }
      let r = Recorder()
      let d = subject.observe(on: scheduler).subscribe(r)
      for i in Int64(3000)..<5000 { subject.on(.next(i)) }
      subject.on(.completed)
      XCTAssertTrue(waitUntil(10) { r.completed.load(ordering: .acquiring) })
      XCTAssertEqual(r.expected, 5000)
      XCTAssertEqual(r.outOfOrder, 0)
      d.dispose()
    }
  }
}
