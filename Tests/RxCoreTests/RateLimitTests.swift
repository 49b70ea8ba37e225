import XCTest
@testable import RxCore

/// rateLimit: a sliding window on virtual time, the queue's policies, terminal events.
final class RateLimitTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertEqual(Resources.total, start, "live objects leaked") }

  /// Times at which the recorder saw each event.
  final class Timed: Observer<Int> {
    let clock: Scheduler
    var log: [String] = []
    init(_ clock: Scheduler) { self.clock = clock }
    override func on(_ event: Event<Int>) {
      switch event {
      case .next(let v): log.append("\(clock.now):\(v)")
      case .error(let e): log.append("\(clock.now):#\((e as? RxError).map { "\($0)" } ?? "?")")
      case .completed: log.append("\(clock.now):|")
      }
    }
  }

  func testSlidingWindowQueuesInOrder() {
    let s = VirtualTimeScheduler()
    let subject = PublishSubject<Int>()
    let t = Timed(s)
    let limited = subject.rateLimit(2, per: 10, scheduler: s)
    let d = limited.subscribe(t)
    for v in 1...5 { subject.on(.next(v)) }
    _ = s.advance(to: 4)
    subject.on(.next(6))
    subject.on(.completed)  // waits for the queue
    _ = s.start()
    XCTAssertEqual(t.log, ["0:1", "0:2", "10:3", "10:4", "20:5", "20:6", "20:|"])
    XCTAssertEqual(limited.counters.received.load(ordering: .relaxed), 6)
    XCTAssertEqual(limited.counters.delivered.load(ordering: .relaxed), 6)
    d.dispose()
  }

  func testPolicies() {
    for (policy, capacity, expected, dropped) in [
      // one per 10: the queued values leave at 10 and 20, the terminal event behind them
      (FlowPolicy.dropOldest, 2, ["0:1", "10:4", "20:5", "20:|"], [2, 3]),
      (.dropNewest, 2, ["0:1", "10:2", "20:3", "20:|"], [4, 5]),
      (.keepLatest, 9, ["0:1", "10:5", "10:|"], [2, 3, 4]),
      (.fail, 2, ["0:1", "10:2", "20:3", "20:#overflow"], [4]),
    ] {
      let s = VirtualTimeScheduler()
      let subject = PublishSubject<Int>()
      let t = Timed(s)
      var seen: [Int] = []
      let limited = subject.rateLimit(1, per: 10, scheduler: s, capacity: capacity, policy: policy) { seen.append($0) }
      let d = limited.subscribe(t)
      for v in 1...5 { subject.on(.next(v)) }
      subject.on(.completed)
      _ = s.start()
      XCTAssertEqual(t.log, expected, "\(policy)")
      XCTAssertEqual(seen, dropped, "\(policy)")
      XCTAssertEqual(Int(limited.counters.dropped.load(ordering: .relaxed)), dropped.count)
      XCTAssertEqual(limited.counters.overflows.load(ordering: .relaxed), policy == .fail ? 1 : 0)
      d.dispose()
    }
  }

  func testErrorWaitsBehindTheQueueAndDisposeReleasesIt() {
    let s = VirtualTimeScheduler()
    let subject = PublishSubject<Int>()
    let t = Timed(s)
    let d = subject.rateLimit(1, per: 10, scheduler: s).subscribe(t)
    subject.on(.next(1))
    subject.on(.next(2))
    subject.on(.error(RxError.timeout))
    _ = s.start()
    XCTAssertEqual(t.log, ["0:1", "10:2", "10:#timeout"])
    d.dispose()

    let other = PublishSubject<Int>()
    let t2 = Timed(s)
    let d2 = other.rateLimit(1, per: 10, scheduler: s).subscribe(t2)
    for v in 1...3 { other.on(.next(v)) }
    d2.dispose()  // 2 and 3 go with the subscription (tearDown's live-object check)
    _ = s.start()
    XCTAssertEqual(t2.log, ["10:1"])
  }
}
