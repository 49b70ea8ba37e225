import RxCore

/// The catalog on RxCore called directly with `Observable<Value>`, the element type the C
/// layer uses (Swift callers with it get the core's concrete classes for Value). Shapes as in
/// Tests/perf/workloads.c; the subscriber is a final class that counts what it receives, and
/// takes `.next` by pointer.
protocol Counted: AnyObject { var count: Int { get } }

final class CountValue: Observer<Value>, Counted {
  var count = 0
  override func on(_ event: Event<Value>) { count &+= 1 }
  // `.next` by pointer: the fast path `Observer` documents for a Swift subscriber.
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { count &+= 1 }
}
final class CountArray: Observer<[Value]>, Counted {
  var count = 0
  override func on(_ event: Event<[Value]>) { count &+= 1 }
}
final class CountEvent: Observer<Event<Value>>, Counted {
  var count = 0
  override func on(_ event: Event<Event<Value>>) { count &+= 1 }
}
final class SumValue: Observer<Value> {
  var sum: Int64 = 0
  var completed: Int64 = 0
  override func on(_ event: Event<Value>) {
    switch event {
    case .next(let v): sum &+= iv(v)
    case .error: break
    case .completed: completed += 1
    }
  }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { sum &+= iv(element.pointee) }
}

@inline(__always) func iv(_ v: Value) -> Int64 {
  if case .int(let i) = v { return i }
  return 0
}

enum RxCoreCatalog {
  typealias Op = (Observable<Value>) -> Observable<Value>

  /// publish subject -> make -> counter; n values, then completed.
  static func viaSubject<R, O: Observer<R> & Counted>(_ n: Int, _ c: O, _ make: (Observable<Value>) -> Observable<R>) -> Int {
    let s = PublishSubject<Value>()
    let o = make(s)
    let d = o.subscribe(c)
    for k in 0..<Int64(n) { s.on(.next(.int(k))) }
    s.on(.completed)
    d.dispose()
    return c.count
  }
  static func op(_ make: @escaping Op) -> CatalogBody { { n in viaSubject(n, CountValue(), make) } }

  /// A subject of another kind -> counter.
  static func subject<S: Observable<Value>>(_ make: @escaping () -> S, _ send: @escaping (S, Value) -> Void,
                                            _ complete: @escaping (S) -> Void) -> CatalogBody {
    { n in
      let s = make(), c = CountValue()
      let d = s.subscribe(c)
      for k in 0..<Int64(n) { send(s, .int(k)) }
      complete(s)
      d.dispose()
      return c.count
    }
  }

  /// Two publish subjects -> make2 -> counter; each event goes into both.
  static func two(_ make: @escaping (Observable<Value>, Observable<Value>) -> Observable<Value>) -> CatalogBody {
    { n in
      let a = PublishSubject<Value>(), b = PublishSubject<Value>(), c = CountValue()
      let d = make(a, b).subscribe(c)
      for k in 0..<Int64(n) {
        a.on(.next(.int(k)))
        b.on(.next(.int(k)))
      }
      d.dispose()
      return c.count
    }
  }

  /// subject -> make -> counter on a virtual-time scheduler advanced 1000 ns per event.
  static func timed<R, O: Observer<R> & Counted>(_ c: @escaping () -> O, _ make: @escaping (Observable<Value>, VirtualTimeScheduler) -> Observable<R>) -> CatalogBody {
    { n in
      let vts = VirtualTimeScheduler(), s = PublishSubject<Value>(), c = c()
      let d = make(s, vts).subscribe(c)
      for k in 0..<Int64(n) {
        s.on(.next(.int(k)))
        _ = vts.advance(by: 1000)
      }
      d.dispose()
      return c.count
    }
  }

  static func subscribeDispose(_ make: @escaping Op) -> CatalogBody {
    { n in
      let s = PublishSubject<Value>(), o = make(s), c = CountValue()
      for k in 0..<Int64(n) {
        let d = o.subscribe(c)
        s.on(.next(.int(k)))
        d.dispose()
      }
      return c.count
    }
  }

  static func drain<R, O: Observer<R> & Counted>(_ o: Observable<R>, _ c: O) -> Int {
    o.subscribe(c).dispose()
    return c.count
  }

  static func range(_ n: Int) -> Observable<Value> { Observable<Value>.range(start: 0, count: n) }  // fused as the C layer's

  static let inc: (Value) -> Value = { .int(iv($0) &+ 1) }
  static let add: (Value, Value) -> Value = { .int(iv($0) &+ iv($1)) }
  static let eq: (Value, Value) -> Bool = { iv($0) == iv($1) }
  static let sum2: ([Value]) -> Value = { .int(iv($0[0]) &+ iv($0[1])) }

  static let bodies: [String: CatalogBody] = [
    "subject_publish": subject({ PublishSubject<Value>() }, { $0.on(.next($1)) }, { $0.on(.completed) }),
    "subject_behavior": subject({ BehaviorSubject<Value>(value: .int(0)) }, { $0.on(.next($1)) }, { $0.on(.completed) }),
    "subject_replay": subject({ ReplaySubject<Value>.create(bufferSize: 10) }, { $0.on(.next($1)) }, { $0.on(.completed) }),
    "subject_replay_all": subject({ ReplaySubject<Value>.createUnbounded() }, { $0.on(.next($1)) }, { $0.on(.completed) }),
    "subject_async": subject({ AsyncSubject<Value>() }, { $0.on(.next($1)) }, { $0.on(.completed) }),
    "subject_publish_relay": subject({ PublishRelay<Value>() }, { _ = $0.accept($1) }, { _ in }),
    "subject_behavior_relay": subject({ BehaviorRelay<Value>(value: .int(0)) }, { _ = $0.accept($1) }, { _ in }),
    "map": op { $0.map(inc) },
    "filter": op { $0.filter { _ in true } },
    "scan": op { $0.scan(.int(0), accumulator: add) },
    "reduce": op { $0.reduce(.int(0), accumulator: add) },
    "take": op { $0.take(Int.max) },
    "skip": op { $0.skip(1) },
    "take_while": op { $0.take(while: { _ in true }) },
    "skip_while": op { $0.skip(while: { _ in false }) },
    // Value is not Equatable: both rows compare the ints (rx_value_equal does more for boxes).
    "distinct": op { $0.distinctUntilChanged(eq) },
    "distinct_eq": op { $0.distinctUntilChanged(eq) },
    "element_at": op { $0.element(at: Int.max) },
    "first": op { $0.first() },
    "last": op { $0.last() },
    "ignore": op { $0.ignoreElements() },
    "take_last": op { $0.takeLast(1) },
    "to_array": { n in viaSubject(n, CountArray()) { $0.toArray() } },
    "buffer": { n in viaSubject(n, CountArray()) { $0.buffer(timeSpan: nil, count: 10, scheduler: nil) } },
    "materialize": { n in viaSubject(n, CountEvent()) { $0.materialize() } },
    "dematerialize": op { $0.materialize().dematerialize() },
    "start_with": op { $0.startWith(.int(1)) },
    "flat_map": op { $0.flatMap { .just($0) } },
    "flat_map_latest": op { $0.flatMapLatest { .just($0) } },
    "concat_map": op { $0.concatMap { .from([$0, $0]) } },
    "catch": op { $0.catch { _ in .just(.int(0)) } },
    "catch_return": op { $0.catchAndReturn(.int(0)) },
    "retry": op { $0.retry(3) },
    "do": op { o in
      let tap = CountValue()
      return o.do(onNext: { _ in tap.count &+= 1 })
    },
    "take_until": op { $0.take(until: Observable<Value>.never()) },
    "skip_until": op { $0.skip(until: Observable<Value>.just(.int(0))) },
    "share": op { $0.share() },
    "share_replay": op { $0.share(replay: 1) },
    "publish_ref_count": op { $0.publish().refCount() },
    "replay_ref_count": op { $0.replay(1).refCount() },
    "driver": op { $0.asDriver(onErrorJustReturn: .int(0)) },
    "observe_on": op { $0.observe(on: CurrentThreadScheduler.instance) },
    "subscribe_on": op { $0.subscribe(on: ImmediateScheduler.instance) },
    "delay_subscription": op { $0.delaySubscription(0, scheduler: ImmediateScheduler.instance) },
    "merge": two { Observable.merge([$0, $1]) },
    "combine": two { Observable.combineLatest([$0, $1], resultSelector: sum2) },
    "zip": two { Observable.zip([$0, $1], resultSelector: sum2) },
    "with_latest": two { $0.withLatestFrom($1, resultSelector: add) },
    "sample": two { $0.sample($1) },
    "amb": two { Observable.amb([$0, $1]) },
    "concat": two { Observable.concat([$0, $1]) },
    "debounce": timed(CountValue.init) { $0.debounce(500, scheduler: $1) },
    "throttle": timed(CountValue.init) { $0.throttle(500, latest: true, scheduler: $1) },
    "delay": timed(CountValue.init) { $0.delay(500, scheduler: $1) },
    "timeout": timed(CountValue.init) { $0.timeout(1_000_000, scheduler: $1) },
    "buffer_time": timed(CountArray.init) { $0.buffer(timeSpan: 500, count: nil, scheduler: $1) },
    "switch_latest": { n in
      let s = PublishSubject<Observable<Value>>(), c = CountValue()
      let d = s.switchLatest().subscribe(c)
      for k in 0..<Int64(n) { s.on(.next(.just(.int(k)))) }
      d.dispose()
      return c.count
    },
    "subscribe_dispose_subject": subscribeDispose { $0 },
    "subscribe_dispose_map": subscribeDispose { $0.map(inc) },
    "just_map_subscribe": { n in
      let c = CountValue()
      for k in 0..<Int64(n) { Observable<Value>.just(.int(k)).map(inc).subscribe(c).dispose() }
      return c.count
    },
    "range_map_filter_scan": { n in drain(range(n).map(inc).filter { _ in true }.scan(.int(0), accumulator: add), CountValue()) },
    "of": { n in drain(Observable.from((0..<Int64(n)).map { Value.int($0) }), CountValue()) },
    "share_10": { n in
      let s = PublishSubject<Value>(), o = s.share(), cs = (0..<10).map { _ in CountValue() }
      let ds = cs.map { o.subscribe($0) }
      for k in 0..<Int64(n) { s.on(.next(.int(k))) }
      s.on(.completed)
      ds.forEach { $0.dispose() }
      return cs.reduce(0) { $0 + $1.count }
    },
    "interval": { n in
      let vts = VirtualTimeScheduler(), c = CountValue()
      let d = Observable<Value>.interval(1000, scheduler: vts).subscribe(c)
      for _ in 0..<n { _ = vts.advance(by: 1000) }
      d.dispose()
      return c.count
    },
    "range_flat_map_just": { n in drain(range(n).flatMap { .just($0) }, CountValue()) },
    "range_concat_map_of": { n in drain(range(n).concatMap { .from([$0, $0]) }, CountValue()) },
    "contended": { n in
      let s = PublishSubject<Value>(), c = SumValue()
      let d = s.subscribe(c)
      runContended(n) { t, count in
        let base = Int64(t * count)
        for k in 0..<Int64(count) { s.on(.next(.int(base + k))) }
      }
      d.dispose()
      check("RxCore contended sum", c.sum, contendedSum(n))
      return n
    },
  ]

  static let impl = CatalogImpl(name: "rxcore", bodies: bodies)
}
