import XCTest
@_spi(RxC) @testable import RxCore

/// The Value overloads of the multi-source, higher-order and sharing operators (what the C
/// layer calls): each must build its concrete leaves and behave as the generic operator does.
final class MultiSourceValueTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertEqual(Resources.total, start, "live objects leaked") }

  private static func int(_ v: Value) -> Int64 {
    if case .int(let i) = v { return i }
    return -1
  }
  private func ints(_ values: Int64...) -> Observable<Value> { Observable.from(values.map { .int($0) }) }
  private func values(_ r: Recorder<Value>) -> [Int64] { r.elements.map(Self.int) }
  private let sum: ([Value]) throws -> Value = { .int($0.map(MultiSourceValueTests.int).reduce(0, +)) }

  func testOfAndFrom() {
    let of = Observable.of(Value.int(1), .int(2))
    XCTAssertTrue(of is ValueSequenceObservable)
    let r = Recorder<Value>()
    _ = of.subscribe(r)
    XCTAssertEqual(values(r), [1, 2])
    XCTAssertTrue(r.completed)
    XCTAssertTrue(ints(1) is ValueSequenceObservable)
  }

  func testFlatMapAndMerge() {
    let flat = ints(1, 2).flatMap { v in self.ints(Self.int(v), Self.int(v) * 10) }
    XCTAssertTrue(flat is ValueFlatMapProducer)
    let r = Recorder<Value>()
    _ = flat.subscribe(r)
    XCTAssertEqual(values(r), [1, 10, 2, 20])
    XCTAssertTrue(r.completed)

    // Inner subjects: events in arrival order; completed once the outer and every inner are.
    let a = PublishSubject<Value>(), b = PublishSubject<Value>()
    let merged = Observable.merge([a.asObservable(), b.asObservable()])
    XCTAssertTrue(merged is ValueMergeProducer)
    let m = Recorder<Value>()
    let d = merged.subscribe(m)
    a.on(.next(.int(1)))
    b.on(.next(.int(2)))
    a.on(.completed)
    b.on(.next(.int(3)))
    XCTAssertFalse(m.completed)
    b.on(.completed)
    XCTAssertEqual(values(m), [1, 2, 3])
    XCTAssertTrue(m.completed)
    d.dispose()

    let c = PublishSubject<Value>()
    let e = Recorder<Value>()
    let d2 = Observable.merge([c.asObservable(), ints(4)]).subscribe(e)
    c.on(.error(OpTestError(code: 3)))
    XCTAssertEqual(values(e), [4])
    XCTAssertEqual(e.errorCode, 3)
    d2.dispose()

    let none = Recorder<Value>()
    _ = Observable<Value>.merge([]).subscribe(none)
    XCTAssertTrue(none.completed)

    // A downstream that is done stops the merge's own loop over the sources.
    let first = Recorder<Value>()
    _ = Observable.merge([ints(1, 2), ints(3)]).take(1).subscribe(first)
    XCTAssertEqual(values(first), [1])
    XCTAssertTrue(first.completed)
  }

  func testSwitchConcatMapAndConcat() {
    let outer = PublishSubject<Value>()
    let inners = [PublishSubject<Value>(), PublishSubject<Value>()]
    let switched = outer.asObservable().flatMapLatest { inners[Int(Self.int($0))].asObservable() }
    XCTAssertTrue(switched is ValueSwitchProducer)
    let r = Recorder<Value>()
    let d = switched.subscribe(r)
    outer.on(.next(.int(0)))
    inners[0].on(.next(.int(1)))
    outer.on(.next(.int(1)))
    inners[0].on(.next(.int(2)))  // superseded
    inners[1].on(.next(.int(3)))
    outer.on(.completed)
    XCTAssertFalse(r.completed)
    inners[1].on(.completed)
    XCTAssertEqual(values(r), [1, 3])
    XCTAssertTrue(r.completed)
    d.dispose()

    let failing = Recorder<Value>()
    _ = ints(1).flatMapLatest { _ in throw OpTestError(code: 4) }.subscribe(failing)
    XCTAssertEqual(failing.errorCode, 4)

    let concatMapped = ints(1, 2).concatMap { v in self.ints(Self.int(v), Self.int(v) * 10) }
    XCTAssertTrue(concatMapped is ValueConcatMapProducer)
    let cm = Recorder<Value>()
    _ = concatMapped.subscribe(cm)
    XCTAssertEqual(values(cm), [1, 10, 2, 20])
    XCTAssertTrue(cm.completed)

    // The second source is subscribed only once the first completed.
    let a = PublishSubject<Value>(), b = PublishSubject<Value>()
    let concatenated = Observable.concat([a.asObservable(), b.asObservable()])
    XCTAssertTrue(concatenated is ValueConcatProducer)
    let c = Recorder<Value>()
    let d2 = concatenated.subscribe(c)
    b.on(.next(.int(9)))
    a.on(.next(.int(1)))
    a.on(.completed)
    b.on(.next(.int(2)))
    b.on(.completed)
    XCTAssertEqual(values(c), [1, 2])
    XCTAssertTrue(c.completed)
    d2.dispose()
    XCTAssertTrue(ints(1).concat(ints(2)) is ValueConcatProducer)
  }

  func testCombineLatestZipAndWithLatestFrom() {
    let a = PublishSubject<Value>(), b = PublishSubject<Value>()
    let combined = Observable.combineLatest([a.asObservable(), b.asObservable()], resultSelector: sum)
    XCTAssertTrue(combined is ValueCombineLatestProducer)
    let r = Recorder<Value>()
    let d = combined.subscribe(r)
    a.on(.next(.int(1)))
    b.on(.next(.int(10)))
    a.on(.next(.int(2)))
    b.on(.next(.int(20)))
    a.on(.completed)
    XCTAssertFalse(r.completed)
    b.on(.completed)
    XCTAssertEqual(values(r), [11, 12, 22])
    XCTAssertTrue(r.completed)
    d.dispose()

    let x = PublishSubject<Value>(), y = PublishSubject<Value>()
    let zipped = Observable.zip([x.asObservable(), y.asObservable()], resultSelector: sum)
    XCTAssertTrue(zipped is ValueZipProducer)
    let z = Recorder<Value>()
    let d2 = zipped.subscribe(z)
    x.on(.next(.int(1)))
    x.on(.next(.int(2)))
    y.on(.next(.int(10)))
    y.on(.next(.int(20)))
    y.on(.next(.int(30)))
    XCTAssertEqual(values(z), [11, 22])
    x.on(.error(OpTestError(code: 5)))
    XCTAssertEqual(z.errorCode, 5)
    d2.dispose()

    let source = PublishSubject<Value>(), other = PublishSubject<Value>()
    let latest = source.asObservable().withLatestFrom(other.asObservable()) { .int(Self.int($0) * 100 + Self.int($1)) }
    XCTAssertTrue(latest is ValueWithLatestFromProducer)
    let w = Recorder<Value>()
    let d3 = latest.subscribe(w)
    source.on(.next(.int(1)))  // nothing from other yet: dropped
    other.on(.next(.int(5)))
    source.on(.next(.int(2)))
    other.on(.next(.int(6)))
    other.on(.completed)
    source.on(.next(.int(3)))
    source.on(.completed)
    XCTAssertEqual(values(w), [205, 306])
    XCTAssertTrue(w.completed)
    d3.dispose()
  }

  func testSampleAmbTakeUntilSkipUntil() {
    let source = PublishSubject<Value>(), ticks = PublishSubject<Value>()
    let sampled = source.asObservable().sample(ticks.asObservable())
    XCTAssertTrue(sampled is ValueSample)
    let s = Recorder<Value>()
    let d = sampled.subscribe(s)
    source.on(.next(.int(1)))
    source.on(.next(.int(2)))
    ticks.on(.next(.none))
    ticks.on(.next(.none))  // nothing new since the last tick
    source.on(.next(.int(3)))
    source.on(.completed)
    XCTAssertFalse(s.completed)
    ticks.on(.next(.none))
    XCTAssertEqual(values(s), [2, 3])
    XCTAssertTrue(s.completed)
    d.dispose()

    let a = PublishSubject<Value>(), b = PublishSubject<Value>()
    let amb = Observable.amb([a.asObservable(), b.asObservable()])
    XCTAssertTrue(amb is ValueAmbProducer)
    let r = Recorder<Value>()
    let d2 = amb.subscribe(r)
    b.on(.next(.int(5)))
    a.on(.next(.int(1)))
    b.on(.next(.int(6)))
    b.on(.completed)
    XCTAssertEqual(values(r), [5, 6])
    XCTAssertTrue(r.completed)
    XCTAssertFalse(a.hasObservers)
    d2.dispose()
    XCTAssertTrue(ints(1).amb(ints(2)) is ValueAmbProducer)

    let src = PublishSubject<Value>(), stop = PublishSubject<Value>()
    let taken = src.asObservable().take(until: stop.asObservable())
    XCTAssertTrue(taken is ValueTakeUntilProducer)
    let t = Recorder<Value>()
    let d3 = taken.subscribe(t)
    src.on(.next(.int(1)))
    stop.on(.next(.none))
    src.on(.next(.int(2)))
    XCTAssertEqual(values(t), [1])
    XCTAssertTrue(t.completed)
    d3.dispose()

    let src2 = PublishSubject<Value>(), go = PublishSubject<Value>()
    let skipped = src2.asObservable().skip(until: go.asObservable())
    XCTAssertTrue(skipped is ValueSkipUntilProducer)
    let k = Recorder<Value>()
    let d4 = skipped.subscribe(k)
    src2.on(.next(.int(1)))
    go.on(.next(.none))
    src2.on(.next(.int(2)))
    src2.on(.completed)
    XCTAssertEqual(values(k), [2])
    XCTAssertTrue(k.completed)
    d4.dispose()
  }

  /// take(until:), skip(until:) and merge hand a source element on where its source holds it
  /// when their drain is free, and copy it into the drain when it is not (the source here calls
  /// its observer directly, by pointer, also from inside a delivery, as a source with no
  /// serialization of its own may). Boxed elements: each box is released exactly once, none
  /// is freed while still delivered.
  func testTakeUntilSkipUntilAndMergeHandBoxedElementsOnInPlaceAndQueued() {
    do {
      let src = Direct(), stop = PublishSubject<Value>()
      let r = Reentrant(n)
      let d = src.take(until: stop.asObservable()).subscribe(r)
      // At 2 the subscriber has the source send 3 (queued: the drain is held by this
      // delivery), then fires `stop` (queued behind 3): 3 is delivered, then the end; 4 is not.
      r.onElement = { v in
        if v == 2 {
          src.next(3)
          stop.on(.next(.none))
        }
      }
      src.next(1)
      src.next(2)
      src.next(4)
      XCTAssertEqual(r.seen, [1, 2, 3])
      XCTAssertTrue(r.completed)
      d.dispose()
    }
    do {
      let src = Direct(), go = PublishSubject<Value>()
      let r = Reentrant(n)
      let d = src.skip(until: go.asObservable()).subscribe(r)
      src.next(1)  // skipped in place
      go.on(.next(.none))
      // At 2 the subscriber has the source send 5 from inside the delivery: queued, then
      // forwarded.
      r.onElement = { v in if v == 2 { src.next(5) } }
      src.next(2)
      src.next(6)
      XCTAssertEqual(r.seen, [2, 5, 6])
      d.dispose()
    }
    do {
      // merge: the inners forward by pointer through the merge's drain in the same way.
      let a = Direct(), b = Direct()
      let r = Reentrant(n)
      let d = Observable.merge([a.asObservable(), b.asObservable()]).subscribe(r)
      r.onElement = { v in if v == 2 { b.next(3) } }
      a.next(1)
      b.next(2)
      a.next(4)
      XCTAssertEqual(r.seen, [1, 2, 3, 4])
      d.dispose()
    }
    do {
      // concat, concatMap and flatMapLatest: their inners forward by pointer too.
      let a = Direct(), b = Direct()
      let r = Reentrant(n)
      let d = Observable.concat([a.asObservable(), b.asObservable()]).subscribe(r)
      a.next(1)
      a.observer?.on(.completed)
      r.onElement = { v in if v == 2 { b.next(3) } }
      b.next(2)
      b.next(4)
      XCTAssertEqual(r.seen, [1, 2, 3, 4])
      d.dispose()

      let inner = Direct(), outer = PublishSubject<Value>()
      let c = Reentrant(n)
      let e = outer.asObservable().concatMap { _ in inner.asObservable() }.subscribe(c)
      outer.on(.next(.none))
      c.onElement = { v in if v == 5 { inner.next(6) } }
      inner.next(5)
      XCTAssertEqual(c.seen, [5, 6])
      e.dispose()

      let first = Direct(), second = Direct(), switching = PublishSubject<Value>()
      let l = Reentrant(n)
      var pick = [first, second]
      let f = switching.asObservable().flatMapLatest { _ in pick.removeFirst().asObservable() }.subscribe(l)
      switching.on(.next(.none))
      first.next(7)
      switching.on(.next(.none))
      first.next(8)  // from the inner switched away from: dropped
      l.onElement = { v in if v == 9 { second.next(10) } }
      second.next(9)
      XCTAssertEqual(l.seen, [7, 9, 10])
      f.dispose()

      // combineLatest, zip and amb: their indexed observers hand elements by pointer.
      let total: ([Value]) throws -> Value = { .boxed(Counted($0.map(n).reduce(0, +))) }
      let x = Direct(), y = Direct()
      let cr = Reentrant(n)
      let cd = Observable.combineLatest([x.asObservable(), y.asObservable()], resultSelector: total).subscribe(cr)
      x.next(1)
      cr.onElement = { v in if v == 3 { x.next(10) } }  // queued behind this combination
      y.next(2)
      XCTAssertEqual(cr.seen, [3, 12])
      cd.dispose()
      let zx = Direct(), zy = Direct()
      let zr = Reentrant(n)
      let zd = Observable.zip([zx.asObservable(), zy.asObservable()], resultSelector: total).subscribe(zr)
      zx.next(1)
      zx.next(2)
      zr.onElement = { v in if v == 4 { zy.next(5) } }
      zy.next(3)
      XCTAssertEqual(zr.seen, [4, 7])
      zd.dispose()
      let ax = Direct(), ay = Direct()
      let ar = Reentrant(n)
      let ad = Observable.amb([ax.asObservable(), ay.asObservable()]).subscribe(ar)
      ar.onElement = { v in if v == 1 { ay.next(2) } }
      ay.next(1)
      ax.next(9)  // the loser: unsubscribed
      XCTAssertEqual(ar.seen, [1, 2])
      ad.dispose()

      // retry(when:): source elements forward by pointer through its drain.
      let src = Direct()
      let t = Reentrant(n)
      let g = src.retry(when: { $0 }, pack: { _ in .none }).subscribe(t)
      t.onElement = { v in if v == 11 { src.next(12) } }
      src.next(11)
      src.next(13)
      XCTAssertEqual(t.seen, [11, 12, 13])
      g.dispose()
    }
    do {
      // The time operators that pass elements on: take(for:), skip(_:scheduler:), timeout.
      let clock = VirtualTimeScheduler()
      let a = Direct(), ra = Reentrant(n)
      let da = a.take(for: 100, scheduler: clock).subscribe(ra)
      ra.onElement = { v in if v == 1 { a.next(2) } }
      a.next(1)
      _ = clock.advance(by: 100)
      a.next(3)  // after the window: the stream has completed
      XCTAssertTrue(ra.seen == [1, 2] && ra.completed)
      da.dispose()

      let b = Direct(), rb = Reentrant(n)
      let db = b.skip(100, scheduler: clock).subscribe(rb)
      b.next(1)  // inside the window: skipped
      _ = clock.advance(by: 100)
      rb.onElement = { v in if v == 2 { b.next(3) } }
      b.next(2)
      XCTAssertEqual(rb.seen, [2, 3])
      db.dispose()

      let c = Direct(), rc = Reentrant(n)
      let dc = c.timeout(100, scheduler: clock).subscribe(rc)
      _ = clock.advance(by: 60)
      c.next(1)  // re-arms: due at 160 now
      _ = clock.advance(by: 60)
      rc.onElement = { v in if v == 2 { c.next(3) } }
      c.next(2)
      XCTAssertEqual(rc.seen, [1, 2, 3])
      XCTAssertFalse(rc.completed)
      dc.dispose()

      // delay, throttle, debounce and rateLimit keep or send elements taken by pointer.
      let e = Direct(), re = Reentrant(n)
      let de = e.delay(10, scheduler: clock).subscribe(re)
      e.next(1)
      e.next(2)
      XCTAssertEqual(re.seen, [])
      _ = clock.advance(by: 10)
      XCTAssertEqual(re.seen, [1, 2])
      de.dispose()

      let f = Direct(), rf = Reentrant(n)
      let df = f.throttle(10, scheduler: clock).subscribe(rf)
      f.next(1)  // sent now
      f.next(2)  // kept as the latest
      f.next(3)  // replaces it
      _ = clock.advance(by: 10)
      XCTAssertEqual(rf.seen, [1, 3])
      df.dispose()

      let g = Direct(), rg = Reentrant(n)
      let dg = g.debounce(10, scheduler: clock).subscribe(rg)
      g.next(1)
      _ = clock.advance(by: 5)
      g.next(2)  // restarts the quiet time
      _ = clock.advance(by: 10)
      XCTAssertEqual(rg.seen, [2])
      dg.dispose()

      let h = Direct(), rh = Reentrant(n)
      let dh = h.rateLimit(1, per: 10, scheduler: clock).subscribe(rh)
      h.next(1)  // sent now
      h.next(2)  // buffered until the window moves
      XCTAssertEqual(rh.seen, [1])
      _ = clock.advance(by: 10)
      XCTAssertEqual(rh.seen, [1, 2])
      dh.dispose()
    }
    XCTAssertEqual(Counted.live, 0, "every box released once")
  }

  /// The operators that pass an element on unchanged (skip, take, element(at:), both
  /// ifEmpty) forward it by pointer where their source hands it so: right elements, and each
  /// box released exactly once.
  func testForwardingOperatorsHandBoxedElementsOnByPointer() {
    func run(_ make: (Observable<Value>) -> Observable<Value>, _ sent: [Int64], completes: Bool = true)
      -> (seen: [Int64], completed: Bool)
    {
      let src = Direct()
      let r = Reentrant(n)
      let d = make(src).subscribe(r)
      for v in sent { src.next(v) }
      if completes, let o = src.observer { o.on(.completed) }
      d.dispose()
      return (r.seen, r.completed)
    }
    XCTAssertTrue(run({ $0.skip(2) }, [1, 2, 3, 4]) == ([3, 4], true))
    XCTAssertTrue(run({ $0.take(2) }, [1, 2, 3]) == ([1, 2], true))
    XCTAssertTrue(run({ $0.element(at: 1) }, [1, 2, 3]) == ([2], true))
    XCTAssertTrue(run({ $0.ifEmpty(default: .boxed(Counted(9))) }, [1, 2]) == ([1, 2], true))
    XCTAssertTrue(run({ $0.ifEmpty(switchTo: Observable.just(.boxed(Counted(9)))) }, [1, 2]) == ([1, 2], true))
    XCTAssertTrue(run({ $0.ifEmpty(switchTo: Observable.just(.boxed(Counted(9)))) }, []) == ([9], true))
    XCTAssertTrue(run({ $0.single() }, [4]) == ([4], true))
    let sum: (ContiguousArray<Value>) -> Value = { .boxed(Counted($0.map(n).reduce(0, +))) }
    XCTAssertTrue(run({ $0.buffer(timeSpan: nil, count: 2, scheduler: nil, make: sum) }, [1, 2, 3]) == ([3, 3], true))
    XCTAssertTrue(
      run({ $0.buffer(timeSpan: 100, count: 2, scheduler: VirtualTimeScheduler(), make: sum) }, [1, 2, 3, 4]) == ([3, 7, 0], true))
    XCTAssertTrue(run({ $0.toArray(pack: { .boxed(Counted($0.map(n).reduce(0, +))) }) }, [1, 2, 3]) == ([6], true))
    do {
      // sample and withLatestFrom take the source's elements by pointer through their drains.
      let src = Direct(), ticks = PublishSubject<Value>()
      let r = Reentrant(n)
      let d = src.sample(ticks.asObservable()).subscribe(r)
      src.next(1)
      src.next(2)
      r.onElement = { v in if v == 2 { src.next(3) } }  // queued, kept, sampled by the next tick
      ticks.on(.next(.none))
      XCTAssertEqual(r.seen, [2])
      r.onElement = { _ in }
      ticks.on(.next(.none))
      XCTAssertEqual(r.seen, [2, 3])
      d.dispose()

      let s2 = Direct(), other = PublishSubject<Value>()
      let w = Reentrant(n)
      let e = s2.withLatestFrom(other.asObservable(), resultSelector: { .boxed(Counted(n($0) * 10 + n($1))) }).subscribe(w)
      s2.next(1)  // nothing from `other` yet: dropped
      other.on(.next(.boxed(Counted(5))))
      w.onElement = { v in if v == 25 { s2.next(3) } }  // queued behind this delivery
      s2.next(2)
      XCTAssertEqual(w.seen, [25, 35])
      e.dispose()
    }
    XCTAssertEqual(Counted.live, 0, "every box released once")
  }

  func testSharing() {
    let s = PublishSubject<Value>()
    let shared = s.asObservable().share()
    XCTAssertTrue(shared is ValueRefCount)
    let r1 = Recorder<Value>(), r2 = Recorder<Value>()
    let d1 = shared.subscribe(r1)
    s.on(.next(.int(1)))
    let d2 = shared.subscribe(r2)
    s.on(.next(.int(2)))
    XCTAssertEqual(values(r1), [1, 2])
    XCTAssertEqual(values(r2), [2])
    d1.dispose()
    d2.dispose()
    XCTAssertFalse(s.hasObservers)

    let replayed = s.asObservable().share(replay: 1)
    XCTAssertTrue(replayed is ValueRefCount)
    let r3 = Recorder<Value>(), r4 = Recorder<Value>()
    let d3 = replayed.subscribe(r3)
    s.on(.next(.int(3)))
    s.on(.next(.int(4)))
    let d4 = replayed.subscribe(r4)
    s.on(.completed)
    XCTAssertEqual(values(r3), [3, 4])
    XCTAssertEqual(values(r4), [4])
    XCTAssertTrue(r3.completed && r4.completed)
    d3.dispose()
    d4.dispose()

    let t = PublishSubject<Value>()
    let published = t.asObservable().publish()
    XCTAssertTrue(published is ValueConnectableObservable)
    XCTAssertTrue(t.asObservable().replay(2) is ValueConnectableObservable)
    XCTAssertTrue(t.asObservable().multicast { PublishSubject<Value>() } is ValueConnectableObservable)
    let p = Recorder<Value>()
    let d5 = published.subscribe(p)
    t.on(.next(.int(0)))  // not connected yet
    let connection = published.connect()
    t.on(.next(.int(5)))
    connection.dispose()
    t.on(.next(.int(6)))
    XCTAssertEqual(values(p), [5])
    d5.dispose()

    let counted = t.asObservable().replay(2).refCount()
    XCTAssertTrue(counted is ValueRefCount)
    let q = Recorder<Value>()
    let d6 = counted.subscribe(q)
    t.on(.next(.int(7)))
    t.on(.error(OpTestError(code: 8)))
    XCTAssertEqual(values(q), [7])
    XCTAssertEqual(q.errorCode, 8)
    d6.dispose()
  }

  func testDriverAndObserveOnMain() {
    let s = PublishSubject<Value>()
    let driver = s.asObservable().asDriver(onErrorJustReturn: .int(-1))
    XCTAssertTrue(driver is ValueRefCount)
    let r = Recorder<Value>()
    let d = driver.subscribe(r)
    s.on(.next(.int(1)))
    s.on(.next(.int(2)))
    _ = MainScheduler.instance.drain()
    XCTAssertEqual(values(r), [1, 2])
    s.on(.error(OpTestError(code: 9)))
    _ = MainScheduler.instance.drain()
    XCTAssertEqual(values(r), [1, 2, -1])
    XCTAssertTrue(r.completed)
    d.dispose()

    let o = Recorder<Value>()
    let d2 = ints(1, 2, 3).observe(on: MainScheduler.instance).subscribe(o)
    _ = MainScheduler.instance.drain()
    XCTAssertEqual(values(o), [1, 2, 3])
    XCTAssertTrue(o.completed)
    d2.dispose()
  }

  func testSignalSharesWithoutReplay() {
    let s = PublishSubject<Value>()
    let signal = s.asObservable().asSignal(onErrorJustReturn: .int(-1))
    XCTAssertTrue(signal is ValueRefCount)
    let r = Recorder<Value>()
    let d = signal.subscribe(r)
    s.on(.next(.int(1)))
    _ = MainScheduler.instance.drain()
    let late = Recorder<Value>()
    let d2 = signal.subscribe(late)
    s.on(.next(.int(2)))
    _ = MainScheduler.instance.drain()
    XCTAssertEqual(values(r), [1, 2])
    XCTAssertEqual(values(late), [2])  // no replay of 1
    s.on(.error(OpTestError(code: 9)))
    _ = MainScheduler.instance.drain()
    XCTAssertEqual(values(r), [1, 2, -1])
    XCTAssertTrue(r.completed)
    XCTAssertTrue(late.completed)
    d.dispose()
    d2.dispose()
  }
}

// Boxed elements that count themselves, a source that calls its observer directly (by
// pointer where it takes that) and a subscriber that can act inside a delivery.
private final class Counted {
  nonisolated(unsafe) static var live = 0
  let n: Int64
  init(_ n: Int64) { self.n = n; Counted.live += 1 }
  deinit { Counted.live -= 1 }
}
private func n(_ v: Value) -> Int64 {
  if case .boxed(let b as Counted) = v { return b.n }
  return -1
}
/// Calls its one observer directly: by pointer where it takes that.
private final class Direct: Observable<Value> {
  var observer: Observer<Value>?
  override func subscribe(_ observer: Observer<Value>) -> any Disposable {
    self.observer = observer
    return Disposables.create { self.observer = nil }
  }
  func next(_ n: Int64) {
    guard let o = observer else { return }
    XCTAssertTrue(o.takesNextByPointer)
    let v = Value.boxed(Counted(n))
    withUnsafePointer(to: v) { o.onNext(at: $0) }
  }
}
private final class Reentrant: Observer<Value> {
  var seen: [Int64] = [], completed = false
  var onElement: (Int64) -> Void = { _ in }
  let read: (Value) -> Int64
  init(_ read: @escaping (Value) -> Int64) { self.read = read }
  override func on(_ event: Event<Value>) {
    switch event {
    case .next(let v):
      seen.append(read(v))
      onElement(read(v))
    case .completed: completed = true
    case .error: break
    }
  }
}
