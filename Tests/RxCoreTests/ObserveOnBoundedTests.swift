import Glibc
import Synchronization
import XCTest
@testable import RxCore

/// observe(on:capacity:policy:): the bounded observe_on. On a virtual-time scheduler the drain
/// runs only when the scheduler advances, so values sent before that pile up in the queue.
final class ObserveOnBoundedTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() {
    XCTAssertTrue(waitUntil(2) { Resources.total == start }, "live objects leaked")
  }

  /// Sends `values` then completes, all before the drain runs; returns what was delivered,
  /// what was dropped, and the counters.
  func burst<E>(_ values: [E], capacity: Int, policy: FlowPolicy, error: (any Error)? = nil)
    -> (delivered: [Event<E>], dropped: [E], counters: LiveFlowCounters)
  {
    let s = VirtualTimeScheduler()
    let subject = PublishSubject<E>()
    var dropped: [E] = []
    let bounded = subject.observe(on: s, capacity: capacity, policy: policy) { dropped.append($0) }
    let r = Recorder<E>()
    let d = bounded.subscribe(r)
    for v in values { subject.on(.next(v)) }
    subject.on(error.map { .error($0) } ?? .completed)
    XCTAssertEqual(s.start(), .ok)
    d.dispose()
    return (r.events, dropped, bounded.counters)
  }

  func ints(_ events: [Event<Int>]) -> [String] {
    events.map {
      switch $0 {
      case .next(let v): return "\(v)"
      case .error(let e): return "E\((e as? RxError)?.rawValue ?? 0)"
      case .completed: return "C"
      }
    }
  }

  func testEveryPolicyOnABurst() {
    var (events, dropped, counters) = burst(Array(1...5), capacity: 2, policy: .dropOldest)
    XCTAssertEqual(ints(events), ["4", "5", "C"])
    XCTAssertEqual(dropped, [1, 2, 3])
    XCTAssertEqual(counters.dropped.load(ordering: .relaxed), 3)
    XCTAssertEqual(counters.received.load(ordering: .relaxed), 5)
    XCTAssertEqual(counters.delivered.load(ordering: .relaxed), 2)

    (events, dropped, _) = burst(Array(1...5), capacity: 2, policy: .dropNewest)
    XCTAssertEqual(ints(events), ["1", "2", "C"])
    XCTAssertEqual(dropped, [3, 4, 5])

    (events, dropped, _) = burst(Array(1...5), capacity: 100, policy: .keepLatest)
    XCTAssertEqual(ints(events), ["5", "C"])
    XCTAssertEqual(dropped, [1, 2, 3, 4])

    (events, dropped, counters) = burst(Array(1...5), capacity: 2, policy: .fail)
    XCTAssertEqual(ints(events), ["1", "2", "E\(RxError.overflow.rawValue)"])
    XCTAssertEqual(dropped, [3])  // the upstream subscription is gone after it
    XCTAssertEqual(counters.overflows.load(ordering: .relaxed), 1)

    // The drain runs on this thread: waiting cannot make room, so it fails after the timeout.
    (events, dropped, _) = burst(Array(1...3), capacity: 2, policy: .block(timeoutNanos: 1_000_000))
    XCTAssertEqual(ints(events), ["1", "2", "E\(RxError.overflow.rawValue)"])
    XCTAssertEqual(dropped, [3])

    (events, dropped, _) = burst(Array(1...3), capacity: 3, policy: .dropOldest)
    XCTAssertEqual(ints(events), ["1", "2", "3", "C"])
    XCTAssertEqual(dropped, [])
  }

  func testErrorsWaitBehindAFullQueueAndAreNeverDropped() {
    let (events, dropped, _) = burst(Array(1...4), capacity: 2, policy: .dropNewest, error: RxError.timeout)
    XCTAssertEqual(ints(events), ["1", "2", "E\(RxError.timeout.rawValue)"])
    XCTAssertEqual(dropped, [3, 4])
  }

  /// Value, the ABI's element type, goes through the specialized leaf classes.
  func testValueLeafDropsOldest() {
    let (events, dropped, counters) = burst((1...6).map { Value.int(Int64($0)) }, capacity: 3, policy: .dropOldest)
    let delivered = events.compactMap { e -> Int64? in
      if case .next(.int(let v)) = e { return v }
      return nil
    }
    XCTAssertEqual(delivered, [4, 5, 6])
    XCTAssertEqual(dropped.count, 3)
    XCTAssertEqual(counters.delivered.load(ordering: .relaxed), 3)
  }

  func testFailDisposesUpstream() {
    let s = VirtualTimeScheduler()
    let disposed = Atomic<Int>(0)
    let sent = Atomic<Int>(0)
    let src = Observable<Int>.create { sink in
      for i in 0..<100 {
        sink.on(.next(i))
        sent.add(1, ordering: .relaxed)
      }
      return Disposables.create { disposed.add(1, ordering: .relaxed) }
    }
    let r = Recorder<Int>()
    let d = src.observe(on: s, capacity: 4, policy: .fail).subscribe(r)
    XCTAssertEqual(disposed.load(ordering: .relaxed), 1)
    XCTAssertEqual(s.start(), .ok)
    XCTAssertEqual(ints(r.events), ["0", "1", "2", "3", "E\(RxError.overflow.rawValue)"])
    d.dispose()
    XCTAssertEqual(disposed.load(ordering: .relaxed), 1)
  }

  final class Ordered: Observer<Int64>, @unchecked Sendable {
    let count = Atomic<Int>(0)
    let done = Atomic<Bool>(false)
    var last: Int64 = -1
    var outOfOrder = 0
    override func on(_ event: Event<Int64>) {
      switch event {
      case .next(let v):
        if v <= last { outOfOrder += 1 }
        last = v
        count.add(1, ordering: .relaxed)
      default: done.store(true, ordering: .releasing)
      }
    }
  }

  func testAcrossThreadsEveryValueIsDeliveredInOrderOrReportedDropped() {
    for policy in [FlowPolicy.dropOldest, .dropNewest, .keepLatest, .block(timeoutNanos: 10_000_000_000)] {
      let dropCount = Atomic<Int>(0)
      let r = Ordered()
      let bounded = Observable.range(start: 0, count: 200_000)
        .subscribe(on: ConcurrentQueueScheduler(label: "producer"))
        .observe(on: SerialQueueScheduler(label: "consumer"), capacity: 16, policy: policy) { _ in
          dropCount.add(1, ordering: .relaxed)
        }
      let d = bounded.subscribe(r)
      XCTAssertTrue(waitUntil(20) { r.done.load(ordering: .acquiring) })
      let c = bounded.counters
      XCTAssertEqual(r.outOfOrder, 0, "\(policy)")
      if policy != .dropNewest { XCTAssertEqual(r.last, 199_999, "\(policy): the newest value is kept") }
      XCTAssertEqual(c.received.load(ordering: .relaxed), 200_000)
      XCTAssertEqual(Int(c.dropped.load(ordering: .relaxed)), dropCount.load(ordering: .relaxed))
      XCTAssertEqual(Int(c.delivered.load(ordering: .relaxed)), r.count.load(ordering: .relaxed))
      XCTAssertEqual(c.delivered.load(ordering: .relaxed) + c.dropped.load(ordering: .relaxed), 200_000)
      if case .block = policy { XCTAssertEqual(dropCount.load(ordering: .relaxed), 0) }
      d.dispose()
    }
  }

  /// An element that counts its live instances.
  final class Tracked: @unchecked Sendable {
    static let live = Atomic<Int>(0)
    init() { Tracked.live.add(1, ordering: .relaxed) }
    deinit { Tracked.live.subtract(1, ordering: .relaxed) }
  }

  func testDisposeWhileFullReleasesTheQueueAndTheDropped() {
    let s = VirtualTimeScheduler()
    let subject = PublishSubject<Tracked>()
    let r = Recorder<Tracked>()
    let d = subject.observe(on: s, capacity: 8, policy: .dropOldest).subscribe(r)
    for _ in 0..<1000 { subject.on(.next(Tracked())) }
    XCTAssertEqual(Tracked.live.load(ordering: .relaxed), 8)  // the dropped ones are gone at once
    d.dispose()
    XCTAssertEqual(s.start(), .ok)
    XCTAssertTrue(r.events.isEmpty)
    XCTAssertTrue(waitUntil(2) { Tracked.live.load(ordering: .relaxed) == 0 })
  }
}
