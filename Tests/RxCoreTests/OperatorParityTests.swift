import XCTest
@_spi(RxC) @testable import RxCore

/// The operators that complete RxSwift's set: generic behaviour (Int elements, hot sources
/// driven by hand) and the Value overloads' leaf classes.
final class OperatorParityTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertEqual(Resources.total, start, "live objects leaked") }

  private func values(_ values: Int64...) -> Observable<Value> { Observable.from(values.map { .int($0) }) }

  private func ints(_ r: Recorder<Value>) -> [Int64] {
    r.elements.map { if case .int(let i) = $0 { return i } else { return -1 } }
  }

  // ---- default_if_empty

  func testDefaultIfEmpty() {
    let empty = Recorder<Int>()
    _ = Observable<Int>.empty().ifEmpty(default: 7).subscribe(empty)
    XCTAssertEqual(empty.elements, [7])
    XCTAssertTrue(empty.completed)

    let some = Recorder<Int>()
    _ = Observable.from([1, 2]).ifEmpty(default: 7).subscribe(some)
    XCTAssertEqual(some.elements, [1, 2])
    XCTAssertTrue(some.completed)

    let failed = Recorder<Int>()
    _ = Observable<Int>.error(OpTestError(code: 3)).ifEmpty(default: 7).subscribe(failed)
    XCTAssertEqual(failed.elements, [])
    XCTAssertEqual(failed.errorCode, 3)

    let leaf = values().ifEmpty(default: .int(9))
    XCTAssertTrue(leaf is ValueDefaultIfEmptyProducer)
    let r = Recorder<Value>()
    _ = leaf.subscribe(r)
    XCTAssertEqual(ints(r), [9])
  }

  // ---- switch_if_empty

  func testSwitchIfEmptySubscribesTheFallbackOnlyWhenEmpty() {
    let source = HotSource<Int>(), fallback = HotSource<Int>()
    let r = Recorder<Int>()
    let sub = source.observable.ifEmpty(switchTo: fallback.observable).subscribe(r)
    XCTAssertEqual(fallback.subscriptions, 0)
    source.completed()
    XCTAssertEqual(source.disposals, 1)
    XCTAssertEqual(fallback.subscriptions, 1)
    fallback.next(5)
    XCTAssertEqual(r.elements, [5])
    sub.dispose()
    XCTAssertEqual(fallback.disposals, 1)
    fallback.next(6)
    XCTAssertEqual(r.elements, [5])
    source.end()
    fallback.end()
  }

  func testSwitchIfEmptyKeepsANonEmptySourceAndItsError() {
    let fallback = HotSource<Int>()
    let some = Recorder<Int>()
    _ = Observable.from([1]).ifEmpty(switchTo: fallback.observable).subscribe(some)
    XCTAssertEqual(some.elements, [1])
    XCTAssertTrue(some.completed)
    let failed = Recorder<Int>()
    _ = Observable<Int>.error(OpTestError(code: 4)).ifEmpty(switchTo: fallback.observable).subscribe(failed)
    XCTAssertEqual(failed.errorCode, 4)
    XCTAssertEqual(fallback.subscriptions, 0)

    let fallbackFails = Recorder<Int>()
    _ = Observable<Int>.empty().ifEmpty(switchTo: .error(OpTestError(code: 5))).subscribe(fallbackFails)
    XCTAssertEqual(fallbackFails.errorCode, 5)

    let leaf = values().ifEmpty(switchTo: values(1, 2))
    XCTAssertTrue(leaf is ValueSwitchIfEmptyProducer)
    let r = Recorder<Value>()
    _ = leaf.subscribe(r)
    XCTAssertEqual(ints(r), [1, 2])
    XCTAssertTrue(r.completed)
  }

  // ---- single

  func testSingle() {
    let one = Recorder<Int>()
    _ = Observable.from([4]).single().subscribe(one)
    XCTAssertEqual(one.elements, [4])
    XCTAssertTrue(one.completed)

    let none = Recorder<Int>()
    _ = Observable<Int>.empty().single().subscribe(none)
    XCTAssertEqual(none.failedWith as? RxError, .noElements)

    let source = HotSource<Int>()
    let many = Recorder<Int>()
    _ = source.observable.single().subscribe(many)
    source.next(1)
    XCTAssertEqual(source.disposals, 0)
    source.next(2)
    XCTAssertEqual(source.disposals, 1)
    XCTAssertEqual(many.elements, [1])
    XCTAssertEqual(many.failedWith as? RxError, .moreThanOneElement)
    source.end()

    let failed = Recorder<Int>()
    _ = Observable<Int>.error(OpTestError(code: 6)).single().subscribe(failed)
    XCTAssertEqual(failed.errorCode, 6)

    let leaf = values(3).single()
    XCTAssertTrue(leaf is ValueSingleProducer)
    let r = Recorder<Value>()
    _ = leaf.subscribe(r)
    XCTAssertEqual(ints(r), [3])
    XCTAssertTrue(r.completed)
  }

  // ---- enumerated

  func testEnumerated() {
    let r = Recorder<(index: Int, element: String)>()
    _ = Observable.from(["a", "b", "c"]).enumerated().subscribe(r)
    XCTAssertEqual(r.elements.map { $0.index }, [0, 1, 2])
    XCTAssertEqual(r.elements.map { $0.element }, ["a", "b", "c"])
    XCTAssertTrue(r.completed)

    let failed = Recorder<(index: Int, element: Int)>()
    _ = Observable<Int>.error(OpTestError(code: 7)).enumerated().subscribe(failed)
    XCTAssertEqual(failed.errorCode, 7)

    let leaf = values(5, 6).enumerated { index, v in
      if case .int(let i) = v { return .int(Int64(index) * 100 + i) } else { return .none }
    }
    XCTAssertTrue(leaf is ValueEnumeratedProducer)
    let packed = Recorder<Value>()
    _ = leaf.subscribe(packed)
    XCTAssertEqual(ints(packed), [5, 106])
    // every subscription counts from 0
    let again = Recorder<Value>()
    _ = leaf.subscribe(again)
    XCTAssertEqual(ints(again), [5, 106])
  }

  // ---- compact_map

  func testCompactMap() {
    let r = Recorder<String>()
    _ = Observable.from([1, 2, 3, 4]).compactMap { $0 % 2 == 0 ? "\($0)" : nil }.subscribe(r)
    XCTAssertEqual(r.elements, ["2", "4"])
    XCTAssertTrue(r.completed)

    let thrown = Recorder<Int>()
    _ = Observable.from([1, 2, 3]).compactMap { v -> Int? in
      if v == 2 { throw OpTestError(code: 8) }
      return v
    }.subscribe(thrown)
    XCTAssertEqual(thrown.elements, [1])
    XCTAssertEqual(thrown.errorCode, 8)

    let source = HotSource<Int>()
    let disposed = Recorder<Int>()
    var calls = 0
    let sub = source.observable.compactMap { v -> Int? in calls += 1; return v }.subscribe(disposed)
    source.next(1)
    sub.dispose()
    source.next(2)
    XCTAssertEqual(disposed.elements, [1])
    XCTAssertEqual(calls, 1)
    source.end()

    let leaf = values(1, 2, 3).compactMap { v -> Value? in
      if case .int(let i) = v, i != 2 { return .int(i * 10) }
      return nil
    }
    XCTAssertTrue(leaf is ValueCompactMapProducer)
    let packed = Recorder<Value>()
    _ = leaf.subscribe(packed)
    XCTAssertEqual(ints(packed), [10, 30])
  }

  // ---- take(while:behavior:)

  func testTakeWhileInclusive() {
    let r = Recorder<Int>()
    _ = Observable.from([1, 2, 3, 1]).take(while: { $0 < 3 }, behavior: .inclusive).subscribe(r)
    XCTAssertEqual(r.elements, [1, 2, 3])
    XCTAssertTrue(r.completed)

    let exclusive = Recorder<Int>()
    _ = Observable.from([1, 2, 3, 1]).take(while: { $0 < 3 }, behavior: .exclusive).subscribe(exclusive)
    XCTAssertEqual(exclusive.elements, [1, 2])

    let first = Recorder<Int>()
    _ = Observable.from([5, 1]).take(while: { $0 < 3 }, behavior: .inclusive).subscribe(first)
    XCTAssertEqual(first.elements, [5])
    XCTAssertTrue(first.completed)

    let thrown = Recorder<Int>()
    _ = Observable.from([1, 2]).take(while: { v in
      if v == 2 { throw OpTestError(code: 9) }
      return true
    }, behavior: .inclusive).subscribe(thrown)
    XCTAssertEqual(thrown.elements, [1])
    XCTAssertEqual(thrown.errorCode, 9)

    let leaf = values(1, 4, 1).take(while: { if case .int(let i) = $0 { return i < 3 } else { return false } },
                                    behavior: .inclusive)
    XCTAssertTrue(leaf is ValueTakeWhileProducer)
    let v = Recorder<Value>()
    _ = leaf.subscribe(v)
    XCTAssertEqual(ints(v), [1, 4])
    XCTAssertTrue(v.completed)
  }

  // ---- take(until: predicate, behavior:)

  func testTakeUntilPredicate() {
    let exclusive = Recorder<Int>()
    _ = Observable.from([2, 3, 4, 5]).take(until: { $0 == 4 }).subscribe(exclusive)
    XCTAssertEqual(exclusive.elements, [2, 3])
    XCTAssertTrue(exclusive.completed)

    let inclusive = Recorder<Int>()
    _ = Observable.from([2, 3, 4, 5]).take(until: { $0 == 4 }, behavior: .inclusive).subscribe(inclusive)
    XCTAssertEqual(inclusive.elements, [2, 3, 4])
    XCTAssertTrue(inclusive.completed)

    let immediately = Recorder<Int>()
    _ = Observable.from([2, 3]).take(until: { _ in true }, behavior: .inclusive).subscribe(immediately)
    XCTAssertEqual(immediately.elements, [2])

    let source = HotSource<Int>()
    let stopped = Recorder<Int>()
    _ = source.observable.take(until: { $0 == 4 }).subscribe(stopped)
    source.next(1)
    source.next(4)
    XCTAssertEqual(source.disposals, 1)
    XCTAssertEqual(stopped.elements, [1])
    source.end()

    let leaf = values(2, 4, 5).take(until: { if case .int(4) = $0 { return true } else { return false } })
    XCTAssertTrue(leaf is ValueTakeWhileProducer)
    let v = Recorder<Value>()
    _ = leaf.subscribe(v)
    XCTAssertEqual(ints(v), [2])
  }

  // ---- repeatElement

  func testRepeatElementOnAVirtualScheduler() {
    let scheduler = VirtualTimeScheduler()
    let r = Recorder<Int>()
    let sub = Observable.repeatElement(42, scheduler: scheduler).subscribe(r)
    XCTAssertEqual(r.elements, [])
    // other work queued behind the first value runs before the second one
    var order: [String] = []
    _ = scheduler.schedule { order.append("other \(r.elements.count)"); sub.dispose() }
    _ = scheduler.advance(by: 0)
    XCTAssertEqual(order, ["other 1"])
    XCTAssertEqual(r.elements, [42])
    _ = scheduler.advance(by: 10)
    XCTAssertEqual(r.elements, [42])
  }

  func testRepeatElementLoopsOnSynchronousSchedulers() {
    let r = Recorder<Value>()
    let leaf = Observable<Value>.repeatElement(.int(3), scheduler: ImmediateScheduler.instance)
    XCTAssertTrue(leaf is ValueRepeatElementObservable)
    _ = leaf.take(50_000).subscribe(r)
    XCTAssertEqual(r.elements.count, 50_000)
    XCTAssertTrue(r.completed)

    let current = Recorder<Int>()
    _ = Observable.repeatElement(1).take(3).subscribe(current)
    XCTAssertEqual(current.elements, [1, 1, 1])
  }

  // ---- generate

  func testGenerate() {
    let scheduler = VirtualTimeScheduler()
    let r = Recorder<Int>()
    _ = Observable.generate(initialState: 0, condition: { $0 <= 3 }, scheduler: scheduler) { $0 + 1 }.subscribe(r)
    XCTAssertEqual(r.elements, [])
    _ = scheduler.advance(by: 0)
    XCTAssertEqual(r.elements, [0, 1, 2, 3])
    XCTAssertTrue(r.completed)

    let conditionThrows = Recorder<Int>()
    _ = Observable.generate(initialState: 0, condition: { _ in throw OpTestError(code: 10) }) { $0 }
      .subscribe(conditionThrows)
    XCTAssertEqual(conditionThrows.errorCode, 10)

    let iterateThrows = Recorder<Int>()
    _ = Observable.generate(initialState: 0, condition: { _ in true }) { _ in throw OpTestError(code: 11) }
      .subscribe(iterateThrows)
    XCTAssertEqual(iterateThrows.elements, [0])
    XCTAssertEqual(iterateThrows.errorCode, 11)

    let leaf = Observable<Value>.generate(
      initialState: .int(1), condition: { _ in true }, scheduler: ImmediateScheduler.instance
    ) { v in if case .int(let i) = v { return .int(i * 2) } else { return .none } }
    XCTAssertTrue(leaf is ValueGenerateObservable)
    let v = Recorder<Value>()
    _ = leaf.take(5).subscribe(v)
    XCTAssertEqual(ints(v), [1, 2, 4, 8, 16])
    XCTAssertTrue(v.completed)
  }

  // ---- using

  final class Resource: Disposable {
    var disposals = 0
    func dispose() { disposals += 1 }
  }

  func testUsing() {
    var made: [Resource] = []
    let source = HotSource<Int>()
    let o = Observable<Int>.using({ () -> Resource in
      let r = Resource()
      made.append(r)
      return r
    }, observableFactory: { _ in source.observable })
    let r = Recorder<Int>()
    let sub = o.subscribe(r)
    source.next(1)
    XCTAssertEqual(made.count, 1)
    XCTAssertEqual(made[0].disposals, 0)
    sub.dispose()
    XCTAssertEqual(source.disposals, 1)
    XCTAssertEqual(made[0].disposals, 1)

    let completes = Recorder<Int>()
    _ = o.subscribe(completes)
    source.completed()
    XCTAssertTrue(completes.completed)
    XCTAssertEqual(made.count, 2)
    XCTAssertEqual(made[1].disposals, 1)
    source.end()

    let factoryThrows = Recorder<Int>()
    let failing = Observable<Int>.using({ () -> Resource in
      let r = Resource()
      made.append(r)
      return r
    }, observableFactory: { _ in throw OpTestError(code: 12) })
    _ = failing.subscribe(factoryThrows)
    XCTAssertEqual(factoryThrows.errorCode, 12)
    XCTAssertEqual(made[2].disposals, 1)

    let leaf = Observable<Value>.using(resource: { Resource() }, observableFactory: { _ in self.values(1, 2) })
    XCTAssertTrue(leaf is ValueUsingObservable)
    let v = Recorder<Value>()
    _ = leaf.subscribe(v)
    XCTAssertEqual(ints(v), [1, 2])
  }

  // ---- catch into a fixed observable (what rx_catch_with builds)

  func testCatchIntoAFixedObservable() {
    let source = HotSource<Value>(), fallback = HotSource<Value>()
    let next = fallback.observable
    let leaf = source.observable.catch { _ in next }
    XCTAssertTrue(leaf is ValueCatchProducer)
    let r = Recorder<Value>()
    let sub = leaf.subscribe(r)
    source.next(.int(1))
    XCTAssertEqual(fallback.subscriptions, 0)
    source.error(OpTestError(code: 13))
    XCTAssertEqual(source.disposals, 1)
    XCTAssertEqual(fallback.subscriptions, 1)
    fallback.next(.int(2))
    XCTAssertEqual(ints(r), [1, 2])
    XCTAssertNil(r.failedWith)
    sub.dispose()
    XCTAssertEqual(fallback.disposals, 1)
    source.end()
    fallback.end()
  }

  // ---- flatMap(maxConcurrent:) / merge(_:maxConcurrent:)

  func testFlatMapMaxConcurrent() {
    let inners = [HotSource<Int>(), HotSource<Int>(), HotSource<Int>()]
    let r = Recorder<Int>()
    let sub = Observable.from([0, 1, 2]).flatMap(maxConcurrent: 2) { inners[$0].observable }.subscribe(r)
    XCTAssertEqual(inners.map { $0.subscriptions }, [1, 1, 0])
    inners[1].next(10)
    inners[1].completed()
    XCTAssertEqual(inners[2].subscriptions, 1)  // the waiting one took the free slot
    inners[2].next(20)
    inners[0].completed()
    XCTAssertFalse(r.completed)
    inners[2].completed()
    XCTAssertEqual(r.elements, [10, 20])
    XCTAssertTrue(r.completed)
    sub.dispose()
    inners.forEach { $0.end() }
  }

  func testMergeMaxConcurrentDropsWhatWaitsOnDispose() {
    let a = HotSource<Value>(), b = HotSource<Value>()
    let merged = Observable<Value>.merge([a.observable, b.observable], maxConcurrent: 1)
    XCTAssertTrue(merged is ValueMergeProducer)
    let r = Recorder<Value>()
    let sub = merged.subscribe(r)
    a.next(.int(1))
    XCTAssertEqual(b.subscriptions, 0)
    sub.dispose()
    a.completed()
    XCTAssertEqual(b.subscriptions, 0)
    XCTAssertEqual(ints(r), [1])
    a.end()
    b.end()
  }
}
