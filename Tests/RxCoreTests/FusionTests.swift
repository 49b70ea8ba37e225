import XCTest
@_spi(RxC) @testable import RxCore

/// Fusion from Swift (RxCore/Fusion): map/filter chains over `Observable<Value>` are one
/// pipeline with one sink, synchronous roots run without a sink of their own, and flat_map /
/// concat_map deliver synchronous inners without subscribing them. Live objects (every sink
/// counts itself) show which sinks exist while an element is delivered.
final class FusionTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertEqual(Resources.total, start, "live objects leaked") }

  final class Box { let n: Int64; init(_ n: Int64) { self.n = n } }

  /// A box that counts the live ones: each released once, none early.
  final class Counted {
    nonisolated(unsafe) static var live = 0
    let n: Int64
    init(_ n: Int64) { self.n = n; Counted.live += 1 }
    deinit { Counted.live -= 1 }
  }
  private static func n(_ v: Value) -> Int64 {
    switch v {
    case .int(let i): return i
    case .boxed(let b as Counted): return b.n
    default: return -1
    }
  }

  /// Records each element with the number of live objects at the moment it arrives.
  final class Probe: Observer<Value> {
    let base: Int
    var values: [Int64] = []
    var liveDuring: [Int] = []
    var completed = false
    var error: (any Error)?
    var onElement: (Int64) -> Void = { _ in }
    init(base: Int) { self.base = base }
    override func on(_ event: Event<Value>) {
      switch event {
      case .next(let v):
        let n = FusionTests.int(v)
        values.append(n)
        liveDuring.append(Resources.total - base)
        onElement(n)
      case .completed: completed = true
      case .error(let e): error = e
      }
    }
  }

  static func int(_ v: Value) -> Int64 {
    switch v {
    case .int(let i): return i
    case .boxed(let b as Box): return b.n
    default: return -1
    }
  }

  private func chain(_ o: Observable<Value>) -> Observable<Value> {
    o.map { .int(Self.int($0) + 1) }.filter { Self.int($0) % 2 == 0 }.map { .int(Self.int($0) * 2) }
  }

  /// A synchronous loop asks its chain whether anyone wants more only after something may
  /// have stopped (`SynchronousStop`): a take further down still ends it at once, on the
  /// generic range and array loops as on the Value ones.
  func testSynchronousLoopsStopAtOnceWhenATakeFurtherDownCompletes() {
    var calls = 0
    var got: [Int64] = []
    _ = Observable<Int64>.range(start: 0, count: 1_000_000)
      .map { v -> Int64 in calls += 1; return v }
      .scan(0, accumulator: +)
      .take(3)
      .subscribe(onNext: { got.append($0) })
    XCTAssertEqual(got, [0, 1, 3])
    XCTAssertEqual(calls, 3)
    calls = 0
    got = []
    _ = Observable<Int64>.from(Array(0..<100))
      .map { v -> Int64 in calls += 1; return v }
      .scan(0, accumulator: +)
      .take(2)
      .subscribe(onNext: { got.append($0) })
    XCTAssertEqual(got, [0, 1])
    XCTAssertEqual(calls, 2)
  }

  func testAMapFilterMapChainIsOnePipelineSubscribingItsSourceOnce() {
    let source = HotSource<Value>()
    let fused = chain(source.observable)
    XCTAssertTrue(fused is ValuePipeline)
    let p = Probe(base: start)
    let d = fused.subscribe(p)
    XCTAssertEqual(source.subscriptions, 1)
    for i in 0..<6 { source.next(.int(Int64(i))) }
    source.completed()
    XCTAssertEqual(p.values, [4, 8, 12])
    XCTAssertTrue(p.completed)
    // The create's sink and the pipeline's: none per stage.
    XCTAssertEqual(p.liveDuring, [2, 2, 2])
    d.dispose()
    source.end()
  }

  func testEachStageIsStillAnObservableOfItsOwn() {
    let subject = PublishSubject<Value>()
    let first = subject.asObservable().map { .int(Self.int($0) * 10) }
    let second = first.filter { Self.int($0) > 10 }
    let a = Probe(base: start), b = Probe(base: start)
    let da = first.subscribe(a), db = second.subscribe(b)
    subject.on(.next(.int(1)))
    subject.on(.next(.int(2)))
    XCTAssertEqual(a.values, [10, 20])
    XCTAssertEqual(b.values, [20])
    da.dispose()
    db.dispose()
  }

  func testARangeRootRunsAsALoopInThePipelinesSink() {
    let p = Probe(base: start)
    _ = chain(Observable<Value>.range(start: 0, count: 6)).subscribe(p)
    XCTAssertEqual(p.values, [4, 8, 12])
    XCTAssertTrue(p.completed)
    // Only the pipeline's sink: no range sink, nothing per element.
    XCTAssertEqual(p.liveDuring, [1, 1, 1])
  }

  func testAnOfRootRunsAsALoopAndBoxedValuesPassThroughFilters() {
    let values: [Value] = [.boxed(Box(1)), .boxed(Box(2)), .boxed(Box(3))]
    let p = Probe(base: start)
    _ = Observable<Value>.from(values).filter { Self.int($0) != 2 }.subscribe(p)
    XCTAssertEqual(p.values, [1, 3])
    XCTAssertEqual(p.liveDuring, [1, 1])
    XCTAssertTrue(p.completed)
  }

  /// Map stages between boxed and plain values, in every order: each box is released once
  /// (none leaks, none is freed early), and the results are right.
  func testMapStagesHandBoxedAndPlainValuesOnWithoutLeaks() {
    let p = Probe(base: start)
    var seen: [Int64] = []
    let toBox: (Value) -> Value = { .boxed(Counted(Self.n($0) + 1)) }  // plain -> boxed
    let doubled: (Value) -> Value = { .boxed(Counted(Self.n($0) * 2)) }  // boxed -> boxed
    let unboxed: (Value) -> Value = { .int(Self.n($0) + 3) }  // boxed -> plain
    let reboxed: (Value) -> Value = { .boxed(Counted(Self.n($0))) }  // plain -> boxed
    let same: (Value) -> Value = { v in seen.append(Self.n(v)); return v }  // boxed -> the same box
    let source = Observable<Value>.range(start: 0, count: 50)
    let chain = source.map(toBox).map(doubled).map(unboxed).filter { Self.n($0) % 3 != 0 }.map(reboxed).map(same)
    _ = chain.subscribe(p)
    let expected: [Int64] = (0..<50).map { (Int64($0) + 1) * 2 + 3 }.filter { $0 % 3 != 0 }
    XCTAssertEqual(seen, expected)
    XCTAssertEqual(p.values.count, expected.count)
    XCTAssertTrue(p.completed)
    XCTAssertEqual(Counted.live, 0)
  }

  /// Elements a subject lends to a chain (by pointer): each stage reads the caller's box
  /// without owning it, a map's boxed result is owned until the next map or the delivery,
  /// and what a subscriber keeps stays valid. Every box is released once, at the end.
  func testStagesBorrowALentBoxAndOwnWhatAMapMakes() {
    do {
      let subject = PublishSubject<Value>()
      let kept = Recorder<Value>()
      var inputs: [Int64] = []
      let chain = subject.map { v in inputs.append(Self.n(v)); return v }  // the lent box itself
        .filter { Self.n($0) % 2 == 0 }
        .map { .boxed(Counted(Self.n($0) * 10)) }  // a new box, owned by the chain
        .map { v in Self.n(v) > 100 ? .int(Self.n(v)) : v }  // boxed -> plain, or the same box
      final class KeptByPointer: Observer<Value> {
        var elements: [Value] = []
        override func on(_ event: Event<Value>) { if case .next(let v) = event { elements.append(v) } }
        override var takesNextByPointer: Bool { true }
        override func onNext(at element: UnsafePointer<Value>) { elements.append(element.pointee) }
      }
      let keptByPointer = KeptByPointer()
      let d = chain.subscribe(kept), e = chain.subscribe(keptByPointer)
      let elements: [Value] = (1...20).map { .boxed(Counted(Int64($0))) }
      for e in elements { subject.on(.next(e)) }
      XCTAssertEqual(inputs, (1...20).flatMap { [Int64($0), Int64($0)] })
      XCTAssertEqual(kept.elements.map(Self.n), [20, 40, 60, 80, 100, 120, 140, 160, 180, 200])
      XCTAssertEqual(keptByPointer.elements.map(Self.n), [20, 40, 60, 80, 100, 120, 140, 160, 180, 200])
      XCTAssertEqual(Counted.live, 20 + 5 + 5, "the inputs, and the five results each subscriber kept as boxes")
      d.dispose()
      e.dispose()
      XCTAssertEqual(elements.map(Self.n), Array(1...20), "the lent boxes are intact")
    }
    XCTAssertEqual(Counted.live, 0)
  }

  func testAJustRootIsEmittedWithoutAnySink() {
    let p = Probe(base: start)
    let d = Observable<Value>.just(.int(4)).map { .int(Self.int($0) + 1) }.filter { _ in true }.subscribe(p)
    XCTAssertEqual(p.values, [5])
    XCTAssertEqual(p.liveDuring, [0])
    XCTAssertTrue(p.completed)
    XCTAssertTrue(d is NopDisposable)

    let dropped = Probe(base: start)
    _ = Observable<Value>.just(.int(4)).filter { _ in false }.subscribe(dropped)
    XCTAssertEqual(dropped.values, [])
    XCTAssertTrue(dropped.completed)
  }

  func testAThrowingStageFailsTheStreamAndStopsTheLoop() {
    var calls = 0
    let p = Probe(base: start)
    _ = Observable<Value>.range(start: 0, count: 100).map { v -> Value in
      calls += 1
      if Self.int(v) == 2 { throw OpTestError(code: 2) }
      return v
    }.subscribe(p)
    XCTAssertEqual(p.values, [0, 1])
    XCTAssertEqual((p.error as? OpTestError)?.code, 2)
    XCTAssertFalse(p.completed)
    XCTAssertEqual(calls, 3)

    let scalar = Probe(base: start)
    _ = Observable<Value>.just(.int(1)).filter { _ in throw OpTestError(code: 5) }.subscribe(scalar)
    XCTAssertEqual((scalar.error as? OpTestError)?.code, 5)
    XCTAssertFalse(scalar.completed)
  }

  func testNoStageRunsOnceDisposed() {
    var mapped = 0
    let source = HotSource<Value>()
    let p = Probe(base: start)
    let d = source.observable.map { v -> Value in
      mapped += 1
      return v
    }.filter { _ in true }.subscribe(p)
    source.next(.int(1))
    d.dispose()
    source.next(.int(2))  // an upstream event racing the dispose reaches no user function
    XCTAssertEqual(p.values, [1])
    XCTAssertEqual(mapped, 1)
    XCTAssertEqual(source.disposals, 1)
    source.end()
  }

  func testADownstreamThatWantsNoMoreEndsTheLoop() {
    var mapped = 0
    let p = Probe(base: start)
    _ = Observable<Value>.range(start: 0, count: 1_000_000).map { v -> Value in
      mapped += 1
      return v
    }.take(2).subscribe(p)
    XCTAssertEqual(p.values, [0, 1])
    XCTAssertTrue(p.completed)
    XCTAssertEqual(mapped, 2)
  }

  func testFlatMapDeliversSynchronousInnersWithoutSubscribingThem() {
    let p = Probe(base: start)
    _ = Observable<Value>.range(start: 1, count: 3).flatMap { v in
      Observable<Value>.from([v, .int(Self.int(v) * 10)])
    }.subscribe(p)
    XCTAssertEqual(p.values, [1, 10, 2, 20, 3, 30])
    XCTAssertTrue(p.completed)
    // The flat_map's sink alone: no range sink, no inner sink.
    XCTAssertEqual(Set(p.liveDuring), [1])

    let just = Probe(base: start)
    _ = Observable<Value>.range(start: 1, count: 3).flatMap { Observable<Value>.just($0) }.subscribe(just)
    XCTAssertEqual(just.values, [1, 2, 3])
    XCTAssertEqual(Set(just.liveDuring), [1])

    let element = Probe(base: start)
    _ = Observable<Value>.range(start: 1, count: 3).flatMap(selecting: { .element($0) }).subscribe(element)
    XCTAssertEqual(element.values, [1, 2, 3])
    XCTAssertEqual(Set(element.liveDuring), [1])
    XCTAssertTrue(element.completed)
  }

  func testFlatMapWithALimitStillSubscribesItsInnersInTurn() {
    let source = HotSource<Value>()
    let p = Probe(base: start)
    let d = source.observable.flatMap(maxConcurrent: 1, selecting: { .element($0) }).subscribe(p)
    source.next(.int(7))
    source.next(.int(8))
    source.completed()
    XCTAssertEqual(p.values, [7, 8])
    XCTAssertTrue(p.completed)
    d.dispose()
    source.end()
  }

  func testFlatMapWithALimitFusesASynchronousInnerThatFindsAPlace() {
    let source = HotSource<Value>()
    let held = PublishSubject<Value>()
    let p = Probe(base: start)
    let d = source.observable.flatMap(maxConcurrent: 1) { v -> Observable<Value> in
      Self.int(v) == 0 ? held.asObservable() : Observable<Value>.from([v, .int(Self.int(v) * 10)])
    }.subscribe(p)
    source.next(.int(1))
    XCTAssertEqual(p.values, [1, 10])
    // The create's sink, the flat_map's and the subject: no inner sink for the `of`.
    XCTAssertEqual(Set(p.liveDuring), [3])
    source.next(.int(0))  // takes the only place
    source.next(.int(2))  // waits its turn behind it
    held.on(.next(.int(5)))
    XCTAssertEqual(p.values, [1, 10, 5])
    held.on(.completed)
    XCTAssertEqual(p.values, [1, 10, 5, 2, 20])
    source.next(.int(3))
    source.completed()
    XCTAssertEqual(p.values, [1, 10, 5, 2, 20, 3, 30])
    XCTAssertTrue(p.completed)
    d.dispose()
    source.end()
  }

  func testConcatMapAndFlatMapLatestTakeABareElement() {
    let source = HotSource<Value>()
    let held = PublishSubject<Value>()
    let p = Probe(base: start)
    let d = source.observable.concatMap(selectingAt: { v in
      Self.int(v.pointee) == 0 ? .observable(held.asObservable()) : .element(v.pointee)
    }).subscribe(p)
    source.next(.int(1))
    source.next(.int(0))
    source.next(.int(2))  // waits for the active inner
    XCTAssertEqual(p.values, [1])
    held.on(.next(.int(5)))
    held.on(.completed)
    source.completed()
    XCTAssertEqual(p.values, [1, 5, 2])
    XCTAssertTrue(p.completed)
    d.dispose()
    source.end()

    let outer = HotSource<Value>()
    let inner = PublishSubject<Value>()
    let q = Probe(base: start)
    let d2 = outer.observable.flatMapLatest(selectingAt: { v in
      Self.int(v.pointee) == 0 ? .observable(inner.asObservable()) : .element(v.pointee)
    }).subscribe(q)
    outer.next(.int(0))
    inner.on(.next(.int(5)))
    outer.next(.int(1))  // disposes the subscription to `inner`
    XCTAssertFalse(inner.hasObservers)
    inner.on(.next(.int(6)))
    outer.next(.int(2))
    XCTAssertFalse(q.completed)
    outer.completed()
    XCTAssertEqual(q.values, [5, 1, 2])
    XCTAssertTrue(q.completed)
    d2.dispose()
    outer.end()
  }

  func testConcatMapDeliversSynchronousInnersWithoutSubscribingThem() {
    let source = HotSource<Value>()
    let p = Probe(base: start)
    let d = source.observable.concatMap { v in Observable<Value>.from([v, v]) }.subscribe(p)
    source.next(.int(1))
    source.next(.int(2))
    source.completed()
    XCTAssertEqual(p.values, [1, 1, 2, 2])
    XCTAssertTrue(p.completed)
    // The create's sink and the concat_map's: no inner sink.
    XCTAssertEqual(Set(p.liveDuring), [2])
    d.dispose()
    source.end()
  }

  func testConcatMapStopsASynchronousInnerOnceNobodyWantsMore() {
    let p = Probe(base: start)
    _ = Observable<Value>.just(.int(0)).concatMap { _ in
      Observable<Value>.range(start: 0, count: 1_000_000)
    }.take(3).subscribe(p)
    XCTAssertEqual(p.values, [0, 1, 2])
    XCTAssertTrue(p.completed)
  }

  func testFlatMapLatestRunsSynchronousInnersWithoutSubscribingThem() {
    let source = HotSource<Value>()
    let p = Probe(base: start)
    let d = source.observable.flatMapLatest { v in Observable<Value>.from([v, .int(Self.int(v) * 10)]) }.subscribe(p)
    source.next(.int(1))
    source.next(.int(2))
    XCTAssertFalse(p.completed, "the outer is still running")
    source.completed()
    XCTAssertEqual(p.values, [1, 10, 2, 20])
    XCTAssertTrue(p.completed, "each synchronous inner completed, then the outer")
    // The create's sink and the switch's: no inner observer.
    XCTAssertEqual(Set(p.liveDuring), [2])
    d.dispose()
    source.end()
  }

  func testFlatMapLatestStopsASynchronousInnerOnceNobodyWantsMore() {
    let p = Probe(base: start)
    _ = Observable<Value>.just(.int(0)).flatMapLatest { _ in
      Observable<Value>.from((0..<1000).map { .int($0) })
    }.take(3).subscribe(p)
    XCTAssertEqual(p.values, [0, 1, 2])
    XCTAssertTrue(p.completed)
  }
}
