import XCTest
@testable import RxCore

final class Recorder<Element>: Observer<Element> {
  var events: [Event<Element>] = []
  var droppedCount = 0
  override func on(_ event: Event<Element>) { events.append(event) }
  override func dropped() { droppedCount += 1 }
  var elements: [Element] { events.compactMap { $0.element } }
  var completed: Bool { events.contains { if case .completed = $0 { return true } else { return false } } }
}

final class CoreSmokeTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertEqual(Resources.total, start, "live objects leaked") }

  func testRangeEmitsAndCompletes() {
    let r = Recorder<Int64>()
    _ = Observable.range(start: 3, count: 4).subscribe(r)
    XCTAssertEqual(r.elements, [3, 4, 5, 6])
    XCTAssertTrue(r.completed)
  }

  func testCreateSerializesReentrantEmission() {
    var order: [Int] = []
    final class Reentrant: Observer<Int> {
      var sink: AnyObserver<Int>?
      var seen: (Int) -> Void = { _ in }
      override func on(_ event: Event<Int>) {
        if case .next(let v) = event {
          seen(v)
          if v == 1 { sink?.on(.next(2)) }  // re-entrant: must arrive after 1 returns
          seen(-v)
        }
      }
    }
    let obs = Reentrant()
    obs.seen = { order.append($0) }
    let o = Observable<Int>.create { sink in
      obs.sink = sink
      sink.on(.next(1))
      sink.on(.completed)
      return Disposables.create()
    }
    let d = o.subscribe(obs)
    d.dispose()
    obs.sink = nil
    XCTAssertEqual(order, [1, -1, 2, -2])
  }

  func testDrainFromManyThreadsLosesNothing() {
    let drain = Drain<Int>()
    final class Box: @unchecked Sendable { var sum = 0; var count = 0 }
    let box = Box()
    let threads = 4, perThread = 20_000
    DispatchQueueConcurrentPerform(threads) { t in
      for i in 0..<perThread {
        drain.submit(t * perThread + i) { v in box.sum += v; box.count += 1 }
      }
    }
    XCTAssertEqual(box.count, threads * perThread)
    let n = threads * perThread
    XCTAssertEqual(box.sum, n * (n - 1) / 2)
  }
}

import Dispatch
func DispatchQueueConcurrentPerform(_ n: Int, _ body: (Int) -> Void) {
  DispatchQueue.concurrentPerform(iterations: n, execute: body)
}

final class UnownedRefTests: XCTestCase {
  private final class Target {
    var onDeinit: (() -> Void)?
    deinit { onDeinit?() }
  }

  func testLoadsWhileAliveAndNilOnceGone() {
    var target: Target? = Target()
    let ref = UnownedRef(target!)
    XCTAssertTrue(ref.load() === target)
    target = nil
    XCTAssertNil(ref.load())
  }

  /// As a weak reference: nil from inside the object's deinit, the window in which a
  /// subscription's dispose may race its subject's end.
  func testNilDuringDeinit() {
    var target: Target? = Target()
    let ref = UnownedRef(target!)
    var seen: Bool?
    target!.onDeinit = { seen = ref.load() != nil }
    target = nil
    XCTAssertEqual(seen, false)
  }

  func testConcurrentLoadsAndRelease() {
    for _ in 0..<200 {
      var target: Target? = Target()
      let ref = UnownedRef(target!)
      let group = DispatchGroup()
      DispatchQueue.global().async(group: group) {
        for _ in 0..<100 { _ = ref.load() }
      }
      target = nil
      group.wait()
      XCTAssertNil(ref.load())
    }
  }
}
