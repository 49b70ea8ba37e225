import CRxcCore
import Glibc
import Synchronization
import XCTest
@_spi(RxC) @testable import RxCore

/// observe_on's streaming mode (see `ObserveOnSink`): after a long run the drain tells the
/// producer it will see every event without a signal, and ends that with a process barrier.
/// An event published around the end of streaming must be delivered exactly once, in order,
/// by this drain or by the next; none may be stranded in the queue.
final class ObserveOnStreamingTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertTrue(waitUntil(5) { Resources.total == start }, "live objects leaked") }

  /// Records values by pointer (the drain's `onNext(at:)` path); can hold the drain at a
  /// value until the test lets it go on.
  final class Recorder: Observer<Int64>, @unchecked Sendable {
    let next = Atomic<Int64>(0)  // the value expected next: the count delivered in order
    let outOfOrder = Atomic<Int>(0)
    let completed = Atomic<Bool>(false)
    let holdAt = Atomic<Int64>(-1)
    let held = Atomic<Bool>(false)
    var disposeAt: Int64 = -1
    var subscription: (any Disposable)?

    override var takesNextByPointer: Bool { true }
    override func onNext(at element: UnsafePointer<Int64>) { record(element.pointee) }
    override func on(_ event: Event<Int64>) {
      switch event {
      case .next(let v): record(v)
      case .completed: completed.store(true, ordering: .releasing)
      case .error: XCTFail("error")
      }
    }

    func record(_ v: Int64) {
      if v == holdAt.load(ordering: .acquiring) {
        held.store(true, ordering: .releasing)
        while holdAt.load(ordering: .acquiring) == v { sched_yield() }
      }
      let expected = next.load(ordering: .relaxed)
      if v != expected { outOfOrder.add(1, ordering: .relaxed) }
      next.store(expected + 1, ordering: .releasing)
      if v == disposeAt { subscription?.dispose() }
    }
  }

  /// A subject observed on a serial queue, with its sink at hand.
  func observed(_ r: Recorder) -> (PublishSubject<Int64>, ObserveOnSink<Int64>, any Disposable) {
    let subject = PublishSubject<Int64>()
    let sinkBox = Mutex<ObserveOnSink<Int64>?>(nil)
    let o = ObserveOn(source: subject, scheduler: SerialQueueScheduler(label: "streaming")) {
      let sink = ObserveOnSink(observer: $0, cancel: $1, scheduler: $2)
      sinkBox.withLock { $0 = sink }
      return sink
    }
    let d = o.subscribe(r)
    return (subject, sinkBox.withLock { $0! }, d)
  }

  /// Each burst holds the drain at its first value until half the burst is queued: the drain
  /// then has a long run, streams, and the producer sends the second half while it does;
  /// after the burst the producer pauses, so the drain stops streaming (the barrier) and
  /// the next burst needs a new drain.
  func testBurstsStreamAndStopWithoutLosingAnEvent() {
    let r = Recorder()
    let (subject, sink, d) = observed(r)
    let bursts: Int64 = 8, size: Int64 = 20_000
    for b in 0..<bursts {
      let first = b * size
      r.holdAt.store(first, ordering: .releasing)
      for i in first..<first + size / 2 { subject.on(.next(i)) }
      XCTAssertTrue(waitUntil(10) { r.held.load(ordering: .acquiring) })
      r.held.store(false, ordering: .relaxed)
      r.holdAt.store(-1, ordering: .releasing)
      for i in first + size / 2..<first + size { subject.on(.next(i)) }
      XCTAssertTrue(waitUntil(10) { r.next.load(ordering: .acquiring) == first + size }, "burst \(b)")
      usleep(2_000)
    }
    subject.on(.completed)
    XCTAssertTrue(waitUntil(10) { r.completed.load(ordering: .acquiring) })
    XCTAssertEqual(r.next.load(ordering: .acquiring), bursts * size)
    XCTAssertEqual(r.outOfOrder.load(ordering: .relaxed), 0)
    if rxc_process_barrier_works() != 0 {
      // Read after completion, which the drain delivered after its last streaming change.
      // The first burst's held run streams for sure; later bursts may stream within an
      // earlier run (a drain preempted while it lingers sees the next burst when it wakes).
      // Every streaming run ends with its barrier, except one the completion ends.
      XCTAssertGreaterThanOrEqual(sink.streamsStarted, 1)
      XCTAssertTrue((sink.streamsStarted - 1...sink.streamsStarted).contains(sink.streamsStopped),
                    "\(sink.streamsStarted) started, \(sink.streamsStopped) stopped")
    }
    d.dispose()
  }

  /// An event published at the last moment of streaming (from the drain's thread, right
  /// before it stops: the producer saw `streaming` set, so it made no signal) must still
  /// arrive, with nothing sent after it to wake a drain.
  func testEventPublishedAsStreamingStopsIsDelivered() {
    let r = Recorder()
    let (subject, sink, d) = observed(r)
    guard rxc_process_barrier_works() != 0 else { return d.dispose() }
    let size: Int64 = 10_000
    let lastMoment = Atomic<Int>(0)
    sink.beforeStreamingStops = {
      if lastMoment.add(1, ordering: .relaxed).newValue == 1 { subject.on(.next(size)) }
    }
    r.holdAt.store(0, ordering: .releasing)
    for i in Int64(0)..<size { subject.on(.next(i)) }
    XCTAssertTrue(waitUntil(10) { r.held.load(ordering: .acquiring) })
    r.holdAt.store(-1, ordering: .releasing)
    XCTAssertTrue(waitUntil(10) { r.next.load(ordering: .acquiring) == size + 1 }, "the last event was stranded")
    XCTAssertEqual(lastMoment.load(ordering: .relaxed), 1)
    XCTAssertEqual(r.outOfOrder.load(ordering: .relaxed), 0)
    d.dispose()
  }

  /// Bursts of random lengths with random short pauses: the end of streaming races the
  /// producer's events at every point.
  func testRandomBurstsAndPausesDeliverEveryEventOnceInOrder() {
    let r = Recorder()
    let (subject, sink, d) = observed(r)
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func random(_ n: UInt64) -> UInt64 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (seed >> 33) % n
    }
    let total: Int64 = 600_000
    var i: Int64 = 0
    while i < total {
      let burst = Int64(random(30_000)) + 1
      for _ in 0..<burst where i < total {
        subject.on(.next(i))
        i += 1
      }
      switch random(4) {
      case 0: break
      case 1: sched_yield()
      case 2: usleep(UInt32(random(30)))
      default:
        let until = MonotonicClock.now() &+ Int64(random(20_000))
        while MonotonicClock.now() < until {}
      }
    }
    subject.on(.completed)
    XCTAssertTrue(waitUntil(20) { r.completed.load(ordering: .acquiring) })
    XCTAssertEqual(r.next.load(ordering: .acquiring), total)
    XCTAssertEqual(r.outOfOrder.load(ordering: .relaxed), 0)
    // Every streaming run ends with its barrier, except one the completion ends.
    XCTAssertTrue((sink.streamsStarted - 1...sink.streamsStarted).contains(sink.streamsStopped),
                  "\(sink.streamsStarted) started, \(sink.streamsStopped) stopped")
    d.dispose()
  }

  /// Disposed from its own callback in the middle of a stream: nothing after that value
  /// arrives, the producer's later events are dropped, and everything is freed.
  func testDisposeWhileStreaming() {
    let r = Recorder()
    r.disposeAt = 30_000
    let (subject, _, d) = observed(r)
    r.subscription = d
    r.holdAt.store(0, ordering: .releasing)
    for i in Int64(0)..<10_000 { subject.on(.next(i)) }
    XCTAssertTrue(waitUntil(10) { r.held.load(ordering: .acquiring) })
    r.holdAt.store(-1, ordering: .releasing)
    for i in Int64(10_000)..<100_000 { subject.on(.next(i)) }
    XCTAssertTrue(waitUntil(10) { r.next.load(ordering: .acquiring) == 30_001 })
    usleep(20_000)
    XCTAssertEqual(r.next.load(ordering: .acquiring), 30_001)
    XCTAssertEqual(r.outOfOrder.load(ordering: .relaxed), 0)
    XCTAssertFalse(subject.hasObservers)
    r.subscription = nil
  }
}
