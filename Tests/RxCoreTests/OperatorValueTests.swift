import XCTest
@testable import RxCore

/// The Value overloads (what the C layer calls): each must build its concrete leaf and behave
/// as the generic operator does.
final class OperatorValueTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertEqual(Resources.total, start, "live objects leaked") }

  final class Ints { let values: [Int64]; init(_ values: [Int64]) { self.values = values } }
  final class Packed { let event: Event<Value>; init(_ event: Event<Value>) { self.event = event } }

  private func ints(_ values: Int64...) -> Observable<Value> { Observable.from(values.map { .int($0) }) }

  private func record(_ o: Observable<Value>) -> (values: [Int64], completed: Bool, error: (any Error)?) {
    let r = Recorder<Value>()
    _ = o.subscribe(r)
    return (r.elements.map(Self.int), r.completed, r.failedWith)
  }

  private static func int(_ v: Value) -> Int64 {
    switch v {
    case .int(let i): return i
    case .boxed(let box as Ints): return box.values.reduce(0) { $0 * 100 + $1 }
    default: return -1
    }
  }

  func testFilteringOperators() {
    let skip = ints(1, 2, 3).skip(1)
    XCTAssertTrue(skip is ValueSkipProducer)
    XCTAssertEqual(record(skip).values, [2, 3])

    let skipWhile = ints(1, 2, 3, 1).skip(while: { Self.int($0) < 2 })
    XCTAssertTrue(skipWhile is ValueSkipWhileProducer)
    XCTAssertEqual(record(skipWhile).values, [2, 3, 1])

    let takeWhile = ints(1, 2, 3, 1).take(while: { Self.int($0) < 3 })
    XCTAssertTrue(takeWhile is ValueTakeWhileProducer)
    let tw = record(takeWhile)
    XCTAssertEqual(tw.values, [1, 2])
    XCTAssertTrue(tw.completed)

    let elementAt = ints(5, 6, 7).element(at: 1)
    XCTAssertTrue(elementAt is ValueElementAtProducer)
    XCTAssertEqual(record(elementAt).values, [6])
    XCTAssertEqual(record(ints(5).element(at: 1)).error as? RxError, .argumentOutOfRange)

    let last = ints(5, 6, 7).last()
    XCTAssertTrue(last is ValueLastProducer)
    XCTAssertEqual(record(last).values, [7])
    XCTAssertEqual(record(ints().last()).error as? RxError, .noElements)

    let ignore = ints(5, 6).ignoreElements()
    XCTAssertTrue(ignore is ValueIgnoreElementsProducer)
    let ig = record(ignore)
    XCTAssertEqual(ig.values, [])
    XCTAssertTrue(ig.completed)

    let takeLast = ints(1, 2, 3, 4).takeLast(2)
    XCTAssertTrue(takeLast is ValueTakeLastProducer)
    XCTAssertEqual(record(takeLast).values, [3, 4])

    let distinct = ints(1, 1, 2, 2, 1).distinctUntilChanged { Self.int($0) == Self.int($1) }
    XCTAssertTrue(distinct is ValueDistinctUntilChangedProducer)
    XCTAssertEqual(record(distinct).values, [1, 2, 1])
  }

  func testAccumulatingOperators() {
    let add: (Value, Value) throws -> Value = { .int(Self.int($0) + Self.int($1)) }
    let scan = ints(1, 2, 3).scan(.int(10), accumulator: add)
    XCTAssertTrue(scan is ValueScanProducer)
    XCTAssertEqual(record(scan).values, [11, 13, 16])

    let reduce = ints(1, 2, 3).reduce(.int(10), accumulator: add)
    XCTAssertTrue(reduce is ValueReduceProducer)
    XCTAssertEqual(record(reduce).values, [16])

    let failing = ints(1, 2).scan(.int(0)) { _, _ in throw OpTestError(code: 7) }
    let f = record(failing)
    XCTAssertEqual(f.values, [])
    XCTAssertEqual((f.error as? OpTestError)?.code, 7)

    let toArray = ints(1, 2, 3).toArray(pack: { .boxed(Ints($0.map(Self.int))) })
    XCTAssertTrue(toArray is ValueToArrayProducer)
    XCTAssertEqual(record(toArray).values, [10203])

    let buffer = ints(1, 2, 3, 4, 5).buffer(timeSpan: nil, count: 2, scheduler: nil, make: { .boxed(Ints(Array($0).map(Self.int))) })
    XCTAssertTrue(buffer is ValueBufferProducer)
    let b = record(buffer)
    XCTAssertEqual(b.values, [102, 304, 5])
    XCTAssertTrue(b.completed)
  }

  func testStartWith() {
    let array = ints(3).startWith([.int(1), .int(2)])
    XCTAssertTrue(array is ValueStartWithProducer)
    XCTAssertEqual(record(array).values, [1, 2, 3])
    let variadic = ints(3).startWith(.int(1))
    XCTAssertTrue(variadic is ValueStartWithProducer)
    XCTAssertEqual(record(variadic).values, [1, 3])
    XCTAssertEqual(record(variadic.take(1)).values, [1])
  }

  func testDoTapAndClosures() {
    var log: [String] = []
    let hot = HotSource<Value>()
    let closures = hot.observable.do(onNext: { log.append("n\(Self.int($0))") }, onDispose: { log.append("disposed") })
    XCTAssertTrue(closures is ValueDoProducer)
    let r = Recorder<Value>()
    let d = closures.subscribe(r)
    hot.next(.int(1))
    d.dispose()
    d.dispose()
    XCTAssertEqual(log, ["n1", "disposed"])
    XCTAssertEqual(r.elements.map(Self.int), [1])
    hot.end()

    let tap = Recorder<Value>()
    let tapped = ints(4, 5).do(tap: { tap })
    XCTAssertTrue(tapped is ValueDoProducer)
    XCTAssertEqual(record(tapped).values, [4, 5])
    XCTAssertEqual(tap.elements.map(Self.int), [4, 5])
    XCTAssertTrue(tap.completed)
    XCTAssertEqual(tap.droppedCount, 1)  // once, when the sink disposes after the terminal event
  }

  func testCatchRetry() {
    let failing = Observable.concat([ints(1), Observable<Value>.error(OpTestError(code: 1))])

    let handler = HotSource<Value>()
    let caught = failing.catch { _ in handler.observable }
    XCTAssertTrue(caught is ValueCatchProducer)
    let r = Recorder<Value>()
    let d = caught.subscribe(r)
    handler.next(.int(2))  // through the leaf's proxy
    handler.completed()
    XCTAssertEqual(r.elements.map(Self.int), [1, 2])
    XCTAssertTrue(r.completed)
    d.dispose()
    handler.end()

    let rethrown = record(failing.catch { _ in throw OpTestError(code: 2) })
    XCTAssertEqual((rethrown.error as? OpTestError)?.code, 2)

    let returned = failing.catchAndReturn(.int(9))
    XCTAssertTrue(returned is ValueCatchProducer)
    let cr = record(returned)
    XCTAssertEqual(cr.values, [1, 9])
    XCTAssertTrue(cr.completed)

    var subscriptions = 0
    let flaky = Observable<Value>.create { sink in
      subscriptions += 1
      if subscriptions < 3 { sink.on(.error(OpTestError(code: 3))) } else { sink.on(.next(.int(8))); sink.on(.completed) }
      return Disposables.create()
    }
    let retried = flaky.retry(5)
    XCTAssertTrue(retried is ValueRetryProducer)
    let rr = record(retried)
    XCTAssertEqual(rr.values, [8])
    XCTAssertTrue(rr.completed)
    XCTAssertEqual(subscriptions, 3)
    subscriptions = 0
    let once = record(flaky.retry(2))  // the second attempt's error is forwarded
    XCTAssertEqual((once.error as? OpTestError)?.code, 3)
    XCTAssertEqual(subscriptions, 2)
  }

  func testMaterializeDematerialize() {
    let failing = Observable.concat([ints(1), Observable<Value>.error(OpTestError(code: 4))])
    let materialized = failing.materialize(pack: { .boxed(Packed($0)) })
    XCTAssertTrue(materialized is ValueMaterializeProducer)
    let r = Recorder<Value>()
    _ = materialized.subscribe(r)
    XCTAssertEqual(r.elements.count, 2)
    XCTAssertTrue(r.completed)

    let unpack: (Value) throws -> Event<Value> = {
      guard case .boxed(let box as Packed) = $0 else { throw OpTestError(code: 5) }
      return box.event
    }
    let roundTrip = materialized.dematerialize(unpack: unpack)
    XCTAssertTrue(roundTrip is ValueDematerializeProducer)
    let rt = record(roundTrip)
    XCTAssertEqual(rt.values, [1])
    XCTAssertEqual((rt.error as? OpTestError)?.code, 4)

    let notPacked = record(ints(1, 2).dematerialize(unpack: unpack))
    XCTAssertEqual(notPacked.values, [])
    XCTAssertEqual((notPacked.error as? OpTestError)?.code, 5)
  }

  /// The overloads whose output is not a Value (an array, an event) or whose input is a
  /// stream of events or of observables: each builds its leaf and behaves as the generic one.
  func testOverloadsWithOtherOutputTypes() {
    let all = ints(1, 2, 3).toArray()
    XCTAssertTrue(all is ValueToPlainArrayProducer)
    let a = Recorder<[Value]>()
    _ = all.subscribe(a)
    XCTAssertEqual(a.elements.map { $0.map(Self.int) }, [[1, 2, 3]])
    XCTAssertTrue(a.completed)

    let indexed = ints(5, 6).enumerated()
    XCTAssertTrue(indexed is ValueEnumeratedPairsProducer)
    let e = Recorder<(index: Int, element: Value)>()
    _ = indexed.subscribe(e)
    XCTAssertEqual(e.elements.map { $0.index }, [0, 1])
    XCTAssertEqual(e.elements.map { Self.int($0.element) }, [5, 6])
    XCTAssertTrue(e.completed)

    let pairs = ints(1, 2, 3).buffer(timeSpan: nil, count: 2, scheduler: nil)
    XCTAssertTrue(pairs is ValuePlainBufferProducer)
    let b = Recorder<[Value]>()
    _ = pairs.subscribe(b)
    XCTAssertEqual(b.elements.map { $0.map(Self.int) }, [[1, 2], [3]])
    XCTAssertTrue(b.completed)

    let vts = VirtualTimeScheduler(), s = PublishSubject<Value>()
    let timed = Recorder<[Value]>()
    let d = s.buffer(timeSpan: 100, count: 3, scheduler: vts).subscribe(timed)
    s.on(.next(.int(1)))
    _ = vts.advance(by: 100)
    for i in Int64(2)...5 { s.on(.next(.int(i))) }
    _ = vts.advance(by: 100)
    s.on(.completed)
    XCTAssertEqual(timed.elements.map { $0.map(Self.int) }, [[1], [2, 3, 4], [5], []])
    d.dispose()

    let failing = Observable.concat([ints(1), Observable<Value>.error(OpTestError(code: 4))])
    let events = failing.materialize()
    XCTAssertTrue(events is ValueMaterializeEventsProducer)
    let m = Recorder<Event<Value>>()
    _ = events.subscribe(m)
    XCTAssertEqual(m.elements.count, 2)
    if case .next(.int(1)) = m.elements[0] {} else { XCTFail("first event: \(m.elements[0])") }
    XCTAssertEqual((m.elements[1].error as? OpTestError)?.code, 4)
    XCTAssertTrue(m.completed)

    let back = events.dematerialize()
    XCTAssertTrue(back is ValueDematerializeEventsProducer)
    let rt = record(back)
    XCTAssertEqual(rt.values, [1])
    XCTAssertEqual((rt.error as? OpTestError)?.code, 4)

    let outer = PublishSubject<Observable<Value>>(), first = PublishSubject<Value>()
    let switched = outer.switchLatest()
    XCTAssertTrue(switched is ValueSwitchLatestProducer)
    let w = Recorder<Value>()
    let ds = switched.subscribe(w)
    outer.on(.next(first))
    first.on(.next(.int(1)))
    outer.on(.next(ints(2, 3)))
    first.on(.next(.int(9)))  // superseded: ignored
    outer.on(.next(.just(.int(4))))
    outer.on(.completed)
    XCTAssertEqual(w.elements.map(Self.int), [1, 2, 3, 4])
    XCTAssertTrue(w.completed)
    XCTAssertFalse(first.hasObservers)
    ds.dispose()
  }

  /// A subject subscribed as a plain `Observable<Value>` (as an operator subscribes to its
  /// source, through the vtable) works as when its type is named.
  func testSubjectsSubscribedThroughTheirBaseClass() {
    let publish = PublishSubject<Value>(), behavior = BehaviorSubject<Value>(value: .int(7))
    let replay = ReplaySubject<Value>.create(bufferSize: 2), async = AsyncSubject<Value>()
    let relay = PublishRelay<Value>(), behaviorRelay = BehaviorRelay<Value>(value: .int(8))
    let sources: [Observable<Value>] = [publish, behavior, replay, async, relay, behaviorRelay]
    let recorders = sources.map { _ in Recorder<Value>() }
    let ds = zip(sources, recorders).map { $0.subscribe($1) }
    publish.on(.next(.int(1)))
    behavior.on(.next(.int(1)))
    replay.on(.next(.int(1)))
    async.on(.next(.int(1)))
    async.on(.completed)
    relay.accept(.int(1))
    behaviorRelay.accept(.int(1))
    XCTAssertEqual(recorders.map { $0.elements.map(Self.int) }, [[1], [7, 1], [1], [1], [1], [8, 1]])
    for d in ds { d.dispose() }
    publish.on(.next(.int(2)))
    XCTAssertEqual(recorders[0].elements.count, 1)
    XCTAssertFalse(publish.hasObservers || behavior.hasObservers || replay.hasObservers || relay.hasObservers)
  }

  /// `unretainedObject` reads the box from Value's layout: the object of a boxed value, nil
  /// for every plain case (a plain payload that looks like a pointer included).
  /// The Value leaves lend their closures the element where it lies (and a kept one: the
  /// previous element, the state, the other source's latest): boxes a subject lends go in and
  /// out intact, each released once, none kept by an operator after its subscription.
  func testClosuresOfValueLeavesBorrowBoxedElements() {
    final class Counted {
      nonisolated(unsafe) static var live = 0
      let n: Int64
      init(_ n: Int64) { self.n = n; Counted.live += 1 }
      deinit { Counted.live -= 1 }
    }
    func n(_ v: Value) -> Int64 {
      if case .boxed(let b as Counted) = v { return b.n }
      if case .int(let i) = v { return i }
      return -1
    }
    func boxed(_ k: Int64) -> Value { .boxed(Counted(k)) }
    func run(_ make: (Observable<Value>, Observable<Value>) -> Observable<Value>) -> [Int64] {
      let subject = PublishSubject<Value>(), other = PublishSubject<Value>()
      let r = Recorder<Value>()
      let d = make(subject, other).subscribe(r)
      other.on(.next(boxed(100)))
      for k: Int64 in [1, 1, 2, 3, 3, 4] { subject.on(.next(boxed(k))) }
      subject.on(.completed)
      d.dispose()
      return r.elements.map(n)
    }
    do {
      XCTAssertEqual(run { s, _ in s.distinctUntilChanged { n($0) == n($1) } }, [1, 2, 3, 4])
      XCTAssertEqual(run { s, _ in s.scan(boxed(0)) { boxed(n($0) + n($1)) } }, [1, 2, 4, 7, 10, 14])
      XCTAssertEqual(run { s, _ in s.reduce(boxed(0)) { n($0) > n($1) ? $0 : $1 } }, [4])
      XCTAssertEqual(run { s, o in s.withLatestFrom(o) { boxed(n($0) + n($1)) } }, [101, 101, 102, 103, 103, 104])
      XCTAssertEqual(run { s, _ in s.compactMap { n($0) % 2 == 1 ? $0 : nil } }, [1, 1, 3, 3])
      XCTAssertEqual(run { s, _ in s.take(while: { n($0) < 3 }) }, [1, 1, 2])
      XCTAssertEqual(run { s, _ in s.skip(while: { n($0) < 3 }) }, [3, 3, 4])
      var tapped: [Int64] = []
      XCTAssertEqual(run { s, _ in s.do(onNext: { tapped.append(n($0)) }) }, [1, 1, 2, 3, 3, 4])
      XCTAssertEqual(tapped, [1, 1, 2, 3, 3, 4])
      XCTAssertEqual(run { s, _ in s.enumerated { i, v in boxed(Int64(i) * 10 + n(v)) } }, [1, 11, 22, 33, 43, 54])
      XCTAssertEqual(run { s, _ in s.flatMapLatest { .just($0) } }, [1, 1, 2, 3, 3, 4])
    }
    XCTAssertEqual(Counted.live, 0)
  }

  func testUnretainedObject() {
    let box = Ints([1])
    XCTAssertTrue(Value.boxed(box).unretainedObject?.takeUnretainedValue() === box)
    let plain: [Value] = [.none, .int(-1), .double(2.5), .bool(true), .ptr(nil), .ptr(Unmanaged.passUnretained(box).toOpaque())]
    for v in plain { XCTAssertNil(v.unretainedObject, "\(v)") }
  }
}
