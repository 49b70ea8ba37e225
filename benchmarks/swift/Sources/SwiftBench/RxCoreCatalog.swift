import Glibc
// The catalog mirrors the C workloads, so a few rows take the C layer's own entry points
// (a `create` sink, the `do` hooks object, the immediate scheduler, group keys by class).
@_spi(RxC) import RxCore

/// The catalog on RxCore called directly with `Observable<Value>`, the element type the C
/// layer uses (Swift callers with it get the core's concrete classes for Value). Shapes as in
/// Tests/perf/workloads.c; the subscriber is a final class that counts what it receives,
/// subscribed as a user's `ObserverType` (`subscribe(_:)` hands it `.next` by pointer).
protocol Counted: AnyObject { var count: Int { get } }

final class CountValue: ObserverType, Counted {
  var count = 0
  func on(_ event: Event<Value>) { count &+= 1 }
}
final class CountArray: ObserverType, Counted {
  var count = 0
  func on(_ event: Event<[Value]>) { count &+= 1 }
}
final class CountEvent: ObserverType, Counted {
  var count = 0
  func on(_ event: Event<Event<Value>>) { count &+= 1 }
}
/// The rows that subscribe once per event (subscribe_dispose_*, just_*) subscribe the core's
/// own observer class, which the public `subscribe(_:)` wraps a user's `ObserverType` in: that
/// wrapper is one more object per subscription (3 to 5 locked instructions of reference
/// counting), and these rows guard the subscription path itself. The C layer's observer
/// subclasses `Observer` in the same way.
final class CountSubscription: Observer<Value>, Counted {
  var count = 0
  override func on(_ event: Event<Value>) { count &+= 1 }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { count &+= 1 }
}

final class SumValue: ObserverType {
  var sum: Int64 = 0
  var completed: Int64 = 0
  func on(_ event: Event<Value>) {
    switch event {
    case .next(let v): sum &+= iv(v)
    case .error: break
    case .completed: completed += 1
    }
  }
}

@inline(__always) func iv(_ v: Value) -> Int64 {
  if case .int(let i) = v { return i }
  return 0
}

/// rx_subscribe_single's and rx_subscribe_maybe's callbacks: a success (the value alone: its
/// completion is not reported) or an error, and for a maybe (`countsEmpty`) a completion
/// without a value.
final class CountSuccess: Observer<Value>, Counted {
  var count = 0
  var succeeded = false
  let countsEmpty: Bool
  init(countsEmpty: Bool) {
    self.countsEmpty = countsEmpty
    super.init()
  }
  override func on(_ event: Event<Value>) {
    switch event {
    case .next: success()
    case .error: count &+= 1
    case .completed: if countsEmpty && !succeeded { count &+= 1 }
    }
    if event.isStopEvent { succeeded = false }
  }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { success() }
  @inline(__always) func success() {
    count &+= 1
    succeeded = true
  }
}

/// The outer subscriber of group_by and window: subscribes `counter` to each observable it
/// receives (a `.boxed` group or window) and keeps the subscriptions, as workloads.c's
/// subscribe_group / subscribe_window.
final class SubscribeEach: ObserverType {
  let counter = CountValue()
  var subscriptions: [any Disposable] = []
  func on(_ event: Event<Value>) {
    guard case .next(let v) = event,
          let o = _withUnprotectedUnsafePointer(to: v, { Value.unretainedObject(at: $0) })?.takeUnretainedValue()
    else { return }
    if type(of: o) == ValueGroupedObservable.self { _ = unsafeDowncast(o, to: ValueGroupedObservable.self).key }  // rx_group_key
    subscriptions.append(unsafeDowncast(o, to: Observable<Value>.self).subscribe(counter))
  }
  func dispose() -> Int {
    subscriptions.forEach { $0.dispose() }
    subscriptions.removeAll()
    return counter.count
  }
}

/// A string key, made per element as workloads.c's mod4_name makes an rx_string.
final class NameKey: ContentKey {
  let name: String
  init(_ name: String) { self.name = name }
  func keyEquals(_ other: AnyObject) -> Bool {
    type(of: other) == NameKey.self && unsafeDowncast(other, to: NameKey.self).name == name
  }
  func hashKey(into hasher: inout Hasher) { hasher.combine(name) }
}

final class CountPair: ObserverType, Counted {
  var count = 0
  func on(_ event: Event<(index: Int, element: Value)>) { count &+= 1 }
}

/// rx_using's resource (no_resource: nothing to release).
final class NoResource: Disposable { func dispose() {} }

struct CatalogError: Error {}

/// The payload of event k, as workloads.c's `payload`: the integer k, or for the *_strings
/// rows one of two strings (boxed), alternately.
nonisolated(unsafe) var sendStrings = false
nonisolated(unsafe) let stringPayloads: [Value] = [.boxed(NameKey("north")), .boxed(NameKey("south"))]
@inline(__always) func payload(_ k: Int64) -> Value { sendStrings ? stringPayloads[Int(k & 1)] : .int(k) }

/// rx_distinct_until_changed's default comparison for two strings: by content.
func sameName(_ a: Value, _ b: Value) -> Bool {
  guard case .boxed(let x) = a, case .boxed(let y) = b else { return false }
  return unsafeDowncast(x, to: NameKey.self).name == unsafeDowncast(y, to: NameKey.self).name
}

enum RxCoreCatalog {
  typealias Op = (Observable<Value>) -> Observable<Value>

  /// publish subject -> make -> counter; n values, then completed.
  static func viaSubject<R, O: ObserverType & Counted>(_ n: Int, _ c: O, _ make: (Observable<Value>) -> Observable<R>) -> Int where O.Element == R {
    let s = PublishSubject<Value>()
    let o = make(s)
    let d = o.subscribe(c)
    for k in 0..<Int64(n) { s.on(.next(payload(k))) }
    s.on(.completed)
    d.dispose()
    return c.count
  }
  static func op(_ make: @escaping Op) -> CatalogBody { { n in viaSubject(n, CountValue(), make) } }
  /// A body run with strings for payloads.
  static func strings(_ body: @escaping CatalogBody) -> CatalogBody {
    { n in
      sendStrings = true
      defer { sendStrings = false }
      return body(n)
    }
  }

  /// A subject of another kind -> counter.
  static func subject<S: Observable<Value>>(_ make: @escaping () -> S, _ send: @escaping (S, Value) -> Void,
                                            _ complete: @escaping (S) -> Void) -> CatalogBody {
    { n in
      let s = make(), c = CountValue()
      let d = s.subscribe(c)
      for k in 0..<Int64(n) { send(s, payload(k)) }
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
        a.on(.next(payload(k)))
        b.on(.next(payload(k)))
      }
      d.dispose()
      return c.count
    }
  }

  /// subject -> make -> counter on a virtual-time scheduler advanced 1000 ns per event.
  static func timed<R, O: ObserverType & Counted>(_ c: @escaping () -> O, _ make: @escaping (Observable<Value>, VirtualTimeScheduler) -> Observable<R>) -> CatalogBody where O.Element == R {
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
      let s = PublishSubject<Value>(), o = make(s), c = CountSubscription()
      for k in 0..<Int64(n) {
        let d = o.subscribe(c)
        s.on(.next(.int(k)))
        d.dispose()
      }
      return c.count
    }
  }

  static func drain<R, O: ObserverType & Counted>(_ o: Observable<R>, _ c: O) -> Int where O.Element == R {
    o.subscribe(c).dispose()
    return c.count
  }

  static func range(_ n: Int) -> Observable<Value> { Observable<Value>.range(start: 0, count: n) }  // fused as the C layer's

  static let inc: (Value) -> Value = { .int(iv($0) &+ 1) }
  static let add: (Value, Value) -> Value = { .int(iv($0) &+ iv($1)) }
  static let eq: (Value, Value) -> Bool = { iv($0) == iv($1) }
  static let sum2: ([Value]) -> Value = { .int(iv($0[0]) &+ iv($0[1])) }
  static let firstOf: ([Value]) -> Value = { $0[0] }
  static let keepOddInc: (Value) -> Value? = { iv($0) % 2 != 0 ? .int(iv($0) &+ 1) : nil }
  static let ignoreDrop: (Value) -> Void = { _ in }
  static let names = ["north", "east", "south", "west"]
  /// rx_debug's text of an int (RxValue.debugText).
  static let describe: (Value) -> String = { if case .int(let i) = $0 { String(i) } else { "value" } }
  /// rx_debug's sink: each line to /dev/null under the stream's lock, flushed.
  static let toDevNull: (String) -> Void = {
    let file = fopen("/dev/null", "w")
    return { line in
      flockfile(file)
      fputs(line, file)
      fputc(10, file)
      fflush(file)
      funlockfile(file)
    }
  }()
  static func debugLog(_ write: @escaping (String) -> Void) -> DebugLog<Value> {
    DebugLog(label: "w", describe: describe, describeError: { "\($0)" }, write: write)
  }

  /// do_with_hooks' on_next and after_next, counting as workloads.c's count_next.
  final class CountHooks: ValueNextHooks {
    var count = 0
    override func onNext(at element: UnsafePointer<Value>) { count &+= 1 }
    override func afterNext(at element: UnsafePointer<Value>) { count &+= 1 }
  }

  /// just(i) -> make -> subscribe + dispose, per lifecycle (workloads.c's w_just_then).
  static func justThen<O: Observer<Value> & Counted>(_ c: @escaping () -> O, _ make: @escaping Op) -> CatalogBody {
    { n in
      let c = c()
      for k in 0..<Int64(n) { make(.just(.int(k))).subscribe(c).dispose() }
      return c.count
    }
  }

  /// publish subject -> make -> an outer subscriber that subscribes the counter to every
  /// observable it emits (group_by's groups, window's windows); n values, then completed.
  static func nested(_ make: @escaping Op) -> CatalogBody {
    { n in
      let s = PublishSubject<Value>(), outer = SubscribeEach()
      let d = make(s).subscribe(outer)
      for k in 0..<Int64(n) { s.on(.next(.int(k))) }
      s.on(.completed)
      d.dispose()
      return outer.dispose()
    }
  }

  /// A source and a pauser subject: the pauser toggles every other event (workloads.c's pausing).
  static func pausing(_ make: @escaping (Observable<Value>, Observable<Value>) -> Observable<Value>) -> CatalogBody {
    { n in
      let s = PublishSubject<Value>(), p = PublishSubject<Value>(), c = CountValue()
      let d = make(s, p).subscribe(c)
      for k in 0..<Int64(n) {
        if k % 2 == 0 { p.on(.next(.bool(k % 8 < 4))) }
        s.on(.next(.int(k)))
      }
      d.dispose()
      return c.count
    }
  }

  /// subject -> make (on a virtual-time scheduler) -> counter; n events, then one advance
  /// of 1000 ns (a bounded queue full for every event).
  static func full(_ make: @escaping (Observable<Value>, VirtualTimeScheduler) -> Observable<Value>) -> CatalogBody {
    { n in
      let vts = VirtualTimeScheduler(), s = PublishSubject<Value>(), c = CountValue()
      let d = make(s, vts).subscribe(c)
      for k in 0..<Int64(n) { s.on(.next(.int(k))) }
      _ = vts.advance(by: 1000)
      d.dispose()
      return c.count
    }
  }

  static let bodies: [String: CatalogBody] = [
    "subject_publish": subject({ PublishSubject<Value>() }, { $0.on(.next($1)) }, { $0.on(.completed) }),
    "subject_behavior": subject({ BehaviorSubject<Value>(value: .int(0)) }, { $0.on(.next($1)) }, { $0.on(.completed) }),
    "subject_replay": subject({ ReplaySubject<Value>.create(bufferSize: 10) }, { $0.on(.next($1)) }, { $0.on(.completed) }),
    "subject_replay_all": subject({ ReplaySubject<Value>.createUnbounded() }, { $0.on(.next($1)) }, { $0.on(.completed) }),
    "subject_async": subject({ AsyncSubject<Value>() }, { $0.on(.next($1)) }, { $0.on(.completed) }),
    "subject_publish_relay": subject({ PublishRelay<Value>() }, { _ = $0.accept($1) }, { _ in }),
    "subject_behavior_relay": subject({ BehaviorRelay<Value>(value: .int(0)) }, { _ = $0.accept($1) }, { _ in }),
    "subject_replay_relay": subject({ ReplayRelay<Value>(bufferSize: 10) }, { _ = $0.accept($1) }, { _ in }),
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
    // The tap counts into the same total, as count_next does in workloads.c.
    "do": { n in
      let tap = CountValue()
      return viaSubject(n, CountValue()) { o in o.do(onNext: { _ in tap.count &+= 1 }) } + tap.count
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
      let c = CountSubscription()
      for k in 0..<Int64(n) { Observable<Value>.just(.int(k)).map(inc).subscribe(c).dispose() }
      return c.count
    },
    "range_map_filter_scan": { n in drain(range(n).map(inc).filter { _ in true }.scan(.int(0), accumulator: add), CountValue()) },
    "of": { n in drain(Observable.from((0..<Int64(n)).map { Value.int($0) }), CountValue()) },
    "create": create,
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
    "map_filter_map": op { $0.map(inc).filter { _ in true }.map(inc) },
    "take_while_inclusive": op { $0.take(while: { _ in true }, behavior: .inclusive) },
    "take_until_predicate": op { $0.take(until: { _ in false }, behavior: .inclusive) },
    "default_if_empty": op { $0.ifEmpty(default: .int(0)) },
    // The subject is the fallback of an empty / a failed source.
    "switch_if_empty": op { Observable<Value>.empty().ifEmpty(switchTo: $0) },
    "catch_with": op { src in Observable<Value>.error(CatalogError()).catch { _ in src } },
    // Swift's pairs are tuples (rx_enumerated's, a two-item array box its sink refills).
    "enumerated": { n in viaSubject(n, CountPair()) { $0.enumerated() } },
    "compact_map": op { $0.compactMap(keepOddInc) },
    "using": op { src in Observable<Value>.using(resource: { NoResource() }, observableFactory: { _ in src }) },
    "flat_map_max": op { $0.flatMap(maxConcurrent: 2) { .from([$0, $0]) } },
    "flat_map_max_just": op { $0.flatMap(maxConcurrent: 1) { .just($0) } },
    "flat_map_first": op { $0.flatMapFirst { .just($0) } },
    "retry_when": op { $0.retry(when: { $0 }, pack: { _ in .none }) },
    // The hooks count, as count_next does in workloads.c (into the same total).
    "do_with_hooks": { n in
      let hooks = CountHooks()
      return viaSubject(n, CountValue()) { $0.do(hooks: DoHooks(), nextHooks: hooks) } + hooks.count
    },
    "debug": op { $0.debug(debugLog(toDevNull)) },
    "debug_callback": op { $0.debug(debugLog({ _ in })) },
    "share_forever": op { $0.share(replay: 1, scope: .forever) },
    "replay_all_ref_count": op { $0.replayAll().refCount() },
    "multicast_ref_count": op { $0.multicast(ReplaySubject<Value>.create(bufferSize: 2)).refCount() },
    "signal": op { $0.asSignal(onErrorJustReturn: .int(0)) },
    "observe_on_bounded": op {
      $0.observe(on: CurrentThreadScheduler.instance, capacity: 1 << 20, policy: .dropOldest, onDropped: ignoreDrop)
    },
    "merge_max": two { Observable.merge([$0, $1], maxConcurrent: 1) },
    "skip_duration": timed(CountValue.init) { $0.skip(500, scheduler: $1) },
    "take_duration": timed(CountValue.init) { $0.take(for: 1_000_000_000_000_000, scheduler: $1) },
    "timeout_to": timed(CountValue.init) { $0.timeout(500, other: $0, scheduler: $1) },
    "retry_backoff": timed(CountValue.init) {
      $0.retry(backoff: Backoff(initialDelay: 1000, multiplier: 2, maxAttempts: 3), scheduler: $1)
    },
    "rate_limit": timed(CountValue.init) {
      $0.rateLimit(1, per: 1500, scheduler: $1, capacity: 1 << 20, policy: .dropOldest, onDropped: ignoreDrop)
    },
    "rate_limit_full": full {
      $0.rateLimit(1, per: .max, scheduler: $1, capacity: 4, policy: .dropOldest, onDropped: ignoreDrop)
    },
    "observe_on_bounded_full": full { $0.observe(on: $1, capacity: 4, policy: .dropOldest, onDropped: ignoreDrop) },
    "pausable": pausing { $0.pausable($1) },
    "pausable_buffered": pausing { $0.pausableBuffered($1, capacity: 2, policy: .dropOldest, onDropped: ignoreDrop) },
    "subscribe_dispose_single": subscribeDispose { $0.single() },
    "subscribe_dispose_using": subscribeDispose { src in
      Observable<Value>.using(resource: { NoResource() }, observableFactory: { _ in src })
    },
    "subscribe_dispose_as_completable": subscribeDispose { $0.asCompletable() },
    "just_as_single": justThen(CountSubscription.init) { $0.asSingle() },
    "just_as_maybe": justThen(CountSubscription.init) { $0.asMaybe() },
    "just_subscribe_single": justThen({ CountSuccess(countsEmpty: false) }) { $0.asSingle() },
    "just_subscribe_maybe": justThen({ CountSuccess(countsEmpty: true) }) { $0.asMaybe() },
    "ignore_subscribe_completable": justThen(CountSubscription.init) { $0.ignoreElements().asCompletable() },
    "range_map": { n in drain(range(n).map(inc), CountValue()) },
    "repeat_element_take": { n in drain(Observable<Value>.repeatElement(.int(1)).take(n), CountValue()) },
    "generate": { n in
      drain(Observable<Value>.generate(initialState: .int(0), condition: { iv($0) < Int64(n) }, iterate: inc), CountValue())
    },
    // One window for the whole run, subscribed by the counter as it opens.
    "window": nested { $0.window(timeSpan: nil, count: 1 << 40, scheduler: nil, make: { .boxed($0) }) },
    "group_by": nested { $0.groupBy(keyAt: { ValueKey(.int(iv($0.pointee) & 3)).unsafelyUnwrapped }, pack: { .boxed($0) }) },
    "group_by_string_keys": nested {
      $0.groupBy(keyAt: { ValueKey(content: NameKey(names[Int(iv($0.pointee) & 3)])) }, pack: { .boxed($0) })
    },
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
    // Strings through the paths that lend, keep, compare or hand over a boxed value (see
    // `payload`), as workloads.c's *_strings rows.
    "subject_publish_strings": strings(subject({ PublishSubject<Value>() }, { $0.on(.next($1)) }, { $0.on(.completed) })),
    "subject_behavior_strings": strings(subject({ BehaviorSubject<Value>(value: .int(0)) }, { $0.on(.next($1)) }, { $0.on(.completed) })),
    "subject_replay_strings": strings(subject({ ReplaySubject<Value>.create(bufferSize: 10) }, { $0.on(.next($1)) }, { $0.on(.completed) })),
    "map_strings": strings(op { $0.map { $0 } }),
    "distinct_strings": strings(op { $0.distinctUntilChanged(sameName) }),
    "scan_strings": strings(op { $0.scan(.int(0)) { $1 } }),
    "share_strings": strings(op { $0.share() }),
    "share_replay_strings": strings(op { $0.share(replay: 1) }),
    "flat_map_strings": strings(op { $0.flatMap { .just($0) } }),
    "buffer_strings": strings { n in viaSubject(n, CountArray()) { $0.buffer(timeSpan: nil, count: 10, scheduler: nil) } },
    "combine_strings": strings(two { Observable.combineLatest([$0, $1], resultSelector: firstOf) }),
    "zip_strings": strings(two { Observable.zip([$0, $1], resultSelector: firstOf) }),
    "with_latest_strings": strings(two { $0.withLatestFrom($1) { a, _ in a } }),
    "sample_strings": strings(two { $0.sample($1) }),
    "create_strings": strings(create),
  ]

  static let create: CatalogBody = { n in
    var emitter: AnonymousObservableSink<Value>?
    let c = CountValue()
    let d = Observable<Value>.createWithSink { o in
      emitter = o
      return Disposables.create()
    }.subscribe(c)
    let e = emitter!
    for k in 0..<Int64(n) { e.on(.next(payload(k))) }
    e.on(.completed)
    d.dispose()
    return c.count
  }

  static let impl = CatalogImpl(name: "rxcore", bodies: bodies)
}
