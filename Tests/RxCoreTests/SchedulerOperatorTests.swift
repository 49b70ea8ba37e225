import Glibc
import Synchronization
import XCTest
@testable import RxCore

/// Records (virtual time, event) pairs as strings: "10:1", "30:C", "30:E".
final class TimedRecorder<Element>: Observer<Element> {
  let scheduler: Scheduler
  var log: [String] = []
  init(_ scheduler: Scheduler) { self.scheduler = scheduler }
  override func on(_ event: Event<Element>) {
    switch event {
    case .next(let v): log.append("\(scheduler.now):\(v)")
    case .error: log.append("\(scheduler.now):E")
    case .completed: log.append("\(scheduler.now):C")
    }
  }
}

enum Script { case next(Int64, Int), completed(Int64), error(Int64) }

/// A source that emits the scripted events at those absolute virtual times.
func scripted(_ s: VirtualTimeScheduler, _ events: [Script]) -> Observable<Int> {
  Observable<Int>.create { sink in
    let all = CompositeDisposable()
    for e in events {
      switch e {  // events before the subscription are skipped (a hot source)
      case .next(let t, _) where t < s.now: continue
      case .completed(let t) where t < s.now: continue
      case .next(let t, let v): all.insert(s.scheduleAfter(t - s.now) { sink.on(.next(v)) })
      case .completed(let t): all.insert(s.scheduleAfter(t - s.now) { sink.on(.completed) })
      case .error(let t): all.insert(s.scheduleAfter(t - s.now) { sink.on(.error(RxError.unknown)) })
      }
    }
    return all
  }
}

final class SchedulerOperatorTests: XCTestCase {
  var start = 0
  override func setUp() {
    start = Resources.total
  }
  override func tearDown() {
    XCTAssertTrue(waitUntil(2) { Resources.total == start }, "live objects leaked")
  }

  func run<E>(_ s: VirtualTimeScheduler, _ o: Observable<E>, until: Int64) -> [String] {
    let r = TimedRecorder<E>(s)
    let d = o.subscribe(r)
    XCTAssertEqual(s.advance(to: until), .ok)
    d.dispose()
    return r.log
  }

  func testIntervalAndTimer() {
    let s = VirtualTimeScheduler()
    XCTAssertEqual(run(s, Observable.interval(10, scheduler: s), until: 35), ["10:0", "20:1", "30:2"])
    XCTAssertEqual(run(s, Observable.timer(5, scheduler: s), until: 100), ["40:0", "40:C"])
  }

  func testDelay() {
    let s = VirtualTimeScheduler()
    let src = scripted(s, [.next(10, 1), .next(20, 2), .completed(40)])
    XCTAssertEqual(run(s, src.delay(15, scheduler: s), until: 100), ["25:1", "35:2", "55:C"])
  }

  func testDelaySubscription() {
    let s = VirtualTimeScheduler()
    let src = scripted(s, [.next(10, 1), .next(30, 2), .completed(40)])
    XCTAssertEqual(run(s, src.delaySubscription(20, scheduler: s), until: 100), ["30:2", "40:C"])
  }

  func testDebounce() {
    let s = VirtualTimeScheduler()
    let src = scripted(s, [.next(10, 1), .next(15, 2), .next(30, 3), .next(45, 4), .completed(50)])
    XCTAssertEqual(run(s, src.debounce(10, scheduler: s), until: 100), ["25:2", "40:3", "50:4", "50:C"])
  }

  func testThrottle() {
    let events: [Script] = [.next(10, 1), .next(12, 2), .next(14, 3), .next(30, 4), .next(33, 5), .completed(35)]
    let s = VirtualTimeScheduler()
    XCTAssertEqual(run(s, scripted(s, events).throttle(10, latest: true, scheduler: s), until: 100),
                   ["10:1", "20:3", "30:4", "40:5", "40:C"])
    let s2 = VirtualTimeScheduler()
    XCTAssertEqual(run(s2, scripted(s2, events).throttle(10, latest: false, scheduler: s2), until: 100),
                   ["10:1", "30:4", "35:C"])
  }

  func testTimeout() {
    let s = VirtualTimeScheduler()
    XCTAssertEqual(run(s, scripted(s, [.next(5, 1), .next(16, 2)]).timeout(10, scheduler: s), until: 100),
                   ["5:1", "15:E"])
  }

  func testTimeoutWithFallback() {
    let s = VirtualTimeScheduler()
    let fallback = Observable<Int>.of(7, 8)
    XCTAssertEqual(run(s, scripted(s, [.next(5, 1), .next(16, 2)]).timeout(10, other: fallback, scheduler: s), until: 100),
                   ["5:1", "15:7", "15:8", "15:C"])
    let s2 = VirtualTimeScheduler()
    XCTAssertEqual(run(s2, scripted(s2, [.next(5, 1), .completed(9)]).timeout(10, other: fallback, scheduler: s2), until: 100),
                   ["5:1", "9:C"])
    // Disposed after the switch: the fallback's subscription ends too.
    let s3 = VirtualTimeScheduler()
    XCTAssertEqual(run(s3, Observable<Int64>.never().timeout(10, other: Observable.interval(10, scheduler: s3), scheduler: s3), until: 35),
                   ["20:0", "30:1"])
  }

  func testRetryBackoff() {
    let s = VirtualTimeScheduler()
    var subscriptions: [Int64] = []
    let failing = Observable<Int>.create { sink in
      subscriptions.append(s.now)
      sink.on(.error(RxError.unknown))
      return Disposables.create()
    }
    let backoff = Backoff(initialDelay: 10, multiplier: 3, maxDelay: 50, maxAttempts: 5)
    XCTAssertEqual(run(s, failing.retry(backoff: backoff, scheduler: s), until: 1000), ["140:E"])
    XCTAssertEqual(subscriptions, [0, 10, 40, 90, 140])  // delays 10, 30, then 50 (the cap) twice

    // Jitter: one seed gives the same delays at each subscription, each within its share.
    let jittered = Backoff(initialDelay: 1000, maxAttempts: 4, jitter: 0.25, seed: 7)
    var runs: [[Int64]] = []
    for _ in 0..<2 {
      subscriptions = []
      let sj = VirtualTimeScheduler()
      let src = Observable<Int>.create { sink in
        subscriptions.append(sj.now)
        sink.on(.error(RxError.unknown))
        return Disposables.create()
      }
      _ = run(sj, src.retry(backoff: jittered, scheduler: sj), until: 100_000)
      runs.append(subscriptions)
    }
    XCTAssertEqual(runs[0], runs[1])
    let gaps = zip(runs[0].dropFirst(), runs[0]).map { $0 - $1 }
    XCTAssertEqual(gaps.count, 3)
    for (n, gap) in gaps.enumerated() {
      let full = Int64(1000) << n
      XCTAssertTrue(gap > full * 3 / 4 - 1 && gap <= full, "gap \(gap) for \(full)")
    }
  }

  func testRetryWhen() {
    let s = VirtualTimeScheduler()
    var subscriptions: [Int64] = []
    let failing = Observable<Int>.create { sink in
      subscriptions.append(s.now)
      sink.on(.next(1))
      sink.on(.error(RxError.unknown))
      return Disposables.create()
    }
    // Retries 5 after each error, twice; then the notifier's completion ends the stream.
    let retried = failing.retry(when: { errors in errors.delay(5, scheduler: s).take(2) })
    XCTAssertEqual(run(s, retried, until: 100), ["0:1", "5:1", "10:1", "10:C"])
    XCTAssertEqual(subscriptions, [0, 5, 10])
  }

  func testSkipDuration() {
    let s = VirtualTimeScheduler()
    let src = scripted(s, [.next(5, 1), .next(12, 2), .next(14, 3), .completed(25)])
    XCTAssertEqual(run(s, src.skip(10, scheduler: s), until: 100), ["12:2", "14:3", "25:C"])
    let s2 = VirtualTimeScheduler()
    XCTAssertEqual(run(s2, scripted(s2, [.next(5, 1), .error(8)]).skip(10, scheduler: s2), until: 100), ["8:E"])
    // The generic path (an element type other than Value) and a due time of 0.
    let s3 = VirtualTimeScheduler()
    XCTAssertEqual(run(s3, Observable.of("a", "b").skip(0 as Int64, scheduler: s3), until: 100), ["0:a", "0:b", "0:C"])
  }

  func testTakeDuration() {
    let s = VirtualTimeScheduler()
    let src = scripted(s, [.next(5, 1), .next(12, 2), .next(14, 3), .completed(25)])
    XCTAssertEqual(run(s, src.take(for: 13, scheduler: s), until: 100), ["5:1", "12:2", "13:C"])
    let s2 = VirtualTimeScheduler()
    XCTAssertEqual(run(s2, Observable<Int>.never().take(for: 7, scheduler: s2), until: 100), ["7:C"])
    let s3 = VirtualTimeScheduler()
    XCTAssertEqual(run(s3, scripted(s3, [.next(5, 1), .error(8)]).take(for: 10, scheduler: s3), until: 100),
                   ["5:1", "8:E"])
  }

  func testSample() {
    let s = VirtualTimeScheduler()
    let src = scripted(s, [.next(5, 1), .next(12, 2), .next(14, 3), .completed(25)])
    XCTAssertEqual(run(s, src.sample(Observable.interval(10, scheduler: s)), until: 100),
                   ["10:1", "20:3", "30:C"])
  }

  func testBuffer() {
    let s = VirtualTimeScheduler()
    let src = scripted(s, [.next(1, 1), .next(2, 2), .next(3, 3), .next(5, 4), .completed(25)])
    XCTAssertEqual(run(s, src.buffer(timeSpan: 10, count: 3, scheduler: s), until: 100),
                   ["3:[1, 2, 3]", "13:[4]", "23:[]", "25:[]", "25:C"])
  }

  final class ThreadRecorder: Observer<Int64>, @unchecked Sendable {
    let mainThread = pthread_self()
    var expected: Int64 = 0
    var outOfOrder = 0, onMain = 0, threads = Set<UInt>()
    let completed = Atomic<Bool>(false)
    override func on(_ event: Event<Int64>) {
      if pthread_equal(pthread_self(), mainThread) != 0 { onMain += 1 }
      threads.insert(UInt(pthread_self()))
      switch event {
      case .next(let v):
        if v != expected { outOfOrder += 1 }
        expected += 1
      case .completed: completed.store(true, ordering: .releasing)
      case .error: XCTFail("error")
      }
    }
  }

  func testObserveOnKeepsOrderOffMainFor100k() {
    for scheduler in [SerialQueueScheduler(label: "o1") as Scheduler, ConcurrentQueueScheduler(label: "o2")] {
      let r = ThreadRecorder()
      let d = Observable.range(start: 0, count: 100_000).observe(on: scheduler).subscribe(r)
      XCTAssertTrue(waitUntil(10) { r.completed.load(ordering: .acquiring) })
      XCTAssertEqual(r.expected, 100_000)
      XCTAssertEqual(r.outOfOrder, 0)
      XCTAssertEqual(r.onMain, 0)
      d.dispose()
    }
  }

  /// An element that counts its live instances.
  final class Tracked: @unchecked Sendable {
    static let live = Atomic<Int>(0)
    init() { Tracked.live.add(1, ordering: .relaxed) }
    deinit { Tracked.live.subtract(1, ordering: .relaxed) }
  }

  /// Holds the first event until `release` is set.
  final class Gate: Observer<Tracked>, @unchecked Sendable {
    let seen = Atomic<Int>(0)
    let release = Atomic<Bool>(false)
    override func on(_ event: Event<Tracked>) {
      if seen.add(1, ordering: .acquiringAndReleasing).oldValue == 0 {
        while !release.load(ordering: .acquiring) { usleep(100) }
      }
    }
  }

  func testObserveOnDisposedMidBurstReleasesWhatItQueued() {
    // 10,000 elements span many queue chunks; the drain stops at the dispose with most of
    // them queued, and they go with the sink.
    let schedulers = [SerialQueueScheduler(label: "q") as Scheduler, ConcurrentQueueScheduler(label: "c")]
    for scheduler in schedulers {
      let gate = Gate()
      let emitted = Atomic<Bool>(false)
      let src = Observable<Tracked>.create { sink in
        for _ in 0..<10_000 { sink.on(.next(Tracked())) }
        emitted.store(true, ordering: .releasing)
        return Disposables.create()
      }
      let d = src.subscribe(on: ConcurrentQueueScheduler(label: "p")).observe(on: scheduler).subscribe(gate)
      XCTAssertTrue(waitUntil(10) { emitted.load(ordering: .acquiring) })
      // The drain is inside the first element's callback (held there by the gate) before the
      // dispose: on a loaded machine it may not have started when the burst was emitted.
      XCTAssertTrue(waitUntil(10) { gate.seen.load(ordering: .acquiring) == 1 })
      d.dispose()
      gate.release.store(true, ordering: .releasing)
      XCTAssertTrue(waitUntil(10) { Tracked.live.load(ordering: .relaxed) == 0 }, "queued elements leaked")
      XCTAssertEqual(gate.seen.load(ordering: .relaxed), 1)
    }
  }

  func testSubscribeOnSubscribesOnTheScheduler() {
    let q = SerialQueueScheduler(label: "s")
    let subscribeThread = Mutex<UInt>(0)
    let src = Observable<Int64>.create { sink in
      subscribeThread.withLock { $0 = UInt(pthread_self()) }
      for i in 0..<100_000 { sink.on(.next(Int64(i))) }
      sink.on(.completed)
      return Disposables.create()
    }
    let r = ThreadRecorder()
    let d = src.subscribe(on: q).subscribe(r)
    XCTAssertTrue(waitUntil(10) { r.completed.load(ordering: .acquiring) })
    XCTAssertEqual(r.outOfOrder, 0)
    XCTAssertEqual(r.onMain, 0)
    XCTAssertEqual(r.threads, [subscribeThread.withLock { $0 }])
    d.dispose()
  }

  func testSeveralObserveOnHopsEndOnMain() {
    let r = ThreadRecorder()
    let chain = Observable.range(start: 0, count: 100_000)
      .subscribe(on: ConcurrentQueueScheduler(label: "w"))
      .observe(on: SerialQueueScheduler(label: "h1"))
      .observe(on: OperationQueueScheduler(label: "h2", maxConcurrent: 3))
      .observe(on: MainScheduler.instance)
    let d = chain.subscribe(r)
    let deadline = MonotonicClock.now() + 10_000_000_000
    while !r.completed.load(ordering: .acquiring) && MonotonicClock.now() < deadline {
      _ = MainScheduler.instance.run(timeout: 1_000_000)
    }
    XCTAssertEqual(r.expected, 100_000)
    XCTAssertEqual(r.outOfOrder, 0)
    XCTAssertEqual(r.threads, [UInt(pthread_self())])
    d.dispose()
  }
}
