#if canImport(RxSwift)
import Foundation
import RxRelay
import RxSwift

/// The catalog on RxSwift 6 with Int64 payloads (Package.swift adds RxSwift only when
/// RXSWIFT_PATH names a checkout). Time operators run on a HistoricalScheduler (virtual
/// time) advanced 1 ms per event, with the C workloads' ratios (due 0.5 ms, timeout 1 s).
final class RxCount<E>: ObserverType {
  var count = 0
  func on(_ event: Event<E>) { count &+= 1 }
}

let rxSwiftCatalog: CatalogImpl? = RxSwiftCatalog.impl

enum RxSwiftCatalog {
  static func op<R>(_ make: @escaping (Observable<Int64>) -> Observable<R>) -> CatalogBody {
    { n in
      let s = PublishSubject<Int64>(), c = RxCount<R>()
      let d = make(s.asObservable()).subscribe(c)
      for k in 0..<Int64(n) { s.onNext(k) }
      s.onCompleted()
      d.dispose()
      return c.count
    }
  }

  static func subject<S: ObservableType>(_ make: @escaping () -> S, _ send: @escaping (S, Int64) -> Void,
                                         _ complete: @escaping (S) -> Void) -> CatalogBody where S.Element == Int64 {
    { n in
      let s = make(), c = RxCount<Int64>()
      let d = s.subscribe(c)
      for k in 0..<Int64(n) { send(s, k) }
      complete(s)
      d.dispose()
      return c.count
    }
  }

  static func two(_ make: @escaping (Observable<Int64>, Observable<Int64>) -> Observable<Int64>) -> CatalogBody {
    { n in
      let a = PublishSubject<Int64>(), b = PublishSubject<Int64>(), c = RxCount<Int64>()
      let d = make(a.asObservable(), b.asObservable()).subscribe(c)
      for k in 0..<Int64(n) {
        a.onNext(k)
        b.onNext(k)
      }
      d.dispose()
      return c.count
    }
  }

  static func timed<R>(_ make: @escaping (Observable<Int64>, HistoricalScheduler) -> Observable<R>) -> CatalogBody {
    { n in
      let hs = HistoricalScheduler(), s = PublishSubject<Int64>(), c = RxCount<R>()
      let d = make(s.asObservable(), hs).subscribe(c)
      for k in 0..<Int64(n) {
        s.onNext(k)
        hs.advanceTo(hs.clock.addingTimeInterval(0.001))
      }
      d.dispose()
      return c.count
    }
  }

  static func subscribeDispose(_ make: @escaping (Observable<Int64>) -> Observable<Int64>) -> CatalogBody {
    { n in
      let s = PublishSubject<Int64>(), o = make(s.asObservable()), c = RxCount<Int64>()
      for k in 0..<Int64(n) {
        let d = o.subscribe(c)
        s.onNext(k)
        d.dispose()
      }
      return c.count
    }
  }

  static func drain<R>(_ o: Observable<R>) -> Int {
    let c = RxCount<R>()
    o.subscribe(c).dispose()
    return c.count
  }

  /// just(i) -> make -> subscribe + dispose, per lifecycle.
  static func justThen<R>(_ make: @escaping (Observable<Int64>) -> Observable<R>) -> CatalogBody {
    { n in
      let c = RxCount<R>()
      for k in 0..<Int64(n) { make(.just(k)).subscribe(c).dispose() }
      return c.count
    }
  }

  /// subject -> groupBy(key) -> a counter per group, subscribed as the group arrives; a fifth
  /// group fails the run, as in the C workload.
  static func groupBy<K: Hashable>(_ key: @escaping (Int64) -> K) -> CatalogBody {
    { n in
      let s = PublishSubject<Int64>(), c = RxCount<Int64>()
      var groups: [Disposable] = []
      let d = s.groupBy(keySelector: key).subscribe(onNext: { g in
        if groups.count == 4 {
          print("bench: rxswift group_by: a fifth group (\(g.key))")
          exit(2)
        }
        groups.append(g.subscribe(c))
      })
      for k in 0..<Int64(n) { s.onNext(k) }
      s.onCompleted()
      d.dispose()
      groups.forEach { $0.dispose() }
      return c.count
    }
  }

  /// debug() prints to standard output only: the body runs with it on /dev/null (the C
  /// workload's debug writes to /dev/null too), and the RESULT lines stay on the terminal.
  static func stdoutDiscarded(_ body: @escaping CatalogBody) -> CatalogBody {
    { n in
      fflush(stdout)
      let saved = dup(1), null = open("/dev/null", O_WRONLY)
      dup2(null, 1)
      close(null)
      let delivered = body(n)
      fflush(stdout)
      dup2(saved, 1)
      close(saved)
      return delivered
    }
  }

  static let bodies: [String: CatalogBody] = [
    "subject_publish": subject({ PublishSubject<Int64>() }, { $0.onNext($1) }, { $0.onCompleted() }),
    "subject_behavior": subject({ BehaviorSubject<Int64>(value: 0) }, { $0.onNext($1) }, { $0.onCompleted() }),
    "subject_replay": subject({ ReplaySubject<Int64>.create(bufferSize: 10) }, { $0.onNext($1) }, { $0.onCompleted() }),
    "subject_replay_all": subject({ ReplaySubject<Int64>.createUnbounded() }, { $0.onNext($1) }, { $0.onCompleted() }),
    "subject_async": subject({ AsyncSubject<Int64>() }, { $0.onNext($1) }, { $0.onCompleted() }),
    "subject_publish_relay": subject({ PublishRelay<Int64>() }, { $0.accept($1) }, { _ in }),
    "subject_behavior_relay": subject({ BehaviorRelay<Int64>(value: 0) }, { $0.accept($1) }, { _ in }),
    "map": op { $0.map { $0 &+ 1 } },
    "filter": op { $0.filter { _ in true } },
    "scan": op { $0.scan(0, accumulator: &+) },
    "reduce": op { $0.reduce(0, accumulator: &+) },
    "take": op { $0.take(Int.max) },
    "skip": op { $0.skip(1) },
    "take_while": op { $0.take(while: { _ in true }) },
    "skip_while": op { $0.skip(while: { _ in false }) },
    "distinct": op { $0.distinctUntilChanged() },
    "distinct_eq": op { $0.distinctUntilChanged { $0 == $1 } },
    "element_at": op { $0.element(at: Int.max) },
    "first": op { $0.first().asObservable() },
    "ignore": op { $0.ignoreElements().asObservable() },
    "take_last": op { $0.takeLast(1) },
    "to_array": op { $0.toArray().asObservable() },
    "materialize": op { $0.materialize() },
    "dematerialize": op { $0.materialize().dematerialize() },
    "start_with": op { $0.startWith(1) },
    "flat_map": op { $0.flatMap { Observable.just($0) } },
    "flat_map_latest": op { $0.flatMapLatest { Observable.just($0) } },
    "concat_map": op { $0.concatMap { Observable.from([$0, $0]) } },
    "catch": op { $0.catch { _ in .just(0) } },
    "catch_return": op { $0.catchAndReturn(0) },
    "retry": op { $0.retry(3) },
    "do": op { o in
      let tap = RxCount<Int64>()
      return o.do(onNext: { _ in tap.count &+= 1 })
    },
    "take_until": op { $0.take(until: Observable<Int64>.never()) },
    "skip_until": op { $0.skip(until: Observable<Int64>.just(0)) },
    "share": op { $0.share() },
    "share_replay": op { $0.share(replay: 1) },
    "publish_ref_count": op { $0.publish().refCount() },
    "replay_ref_count": op { $0.replay(1).refCount() },
    // RxSwift's Immediate-like schedulers: CurrentThreadScheduler is the closest to both.
    "observe_on": op { $0.observe(on: CurrentThreadScheduler.instance) },
    "subscribe_on": op { $0.subscribe(on: CurrentThreadScheduler.instance) },
    "merge": two { Observable.merge($0, $1) },
    "combine": two { Observable.combineLatest($0, $1) { $0 &+ $1 } },
    "zip": two { Observable.zip($0, $1) { $0 &+ $1 } },
    "with_latest": two { $0.withLatestFrom($1) { $0 &+ $1 } },
    "sample": two { $0.sample($1) },
    "amb": two { $0.amb($1) },
    "concat": two { $0.concat($1) },
    "debounce": timed { $0.debounce(.microseconds(500), scheduler: $1) },
    "throttle": timed { $0.throttle(.microseconds(500), latest: true, scheduler: $1) },
    "delay": timed { $0.delay(.microseconds(500), scheduler: $1) },
    "timeout": timed { $0.timeout(.seconds(1), scheduler: $1) },
    "buffer_time": timed { $0.buffer(timeSpan: .microseconds(500), count: Int.max, scheduler: $1) },
    "switch_latest": { n in
      let s = PublishSubject<Observable<Int64>>(), c = RxCount<Int64>()
      let d = s.switchLatest().subscribe(c)
      for k in 0..<Int64(n) { s.onNext(.just(k)) }
      d.dispose()
      return c.count
    },
    "subject_replay_relay": subject({ ReplayRelay<Int64>.create(bufferSize: 10) }, { $0.accept($1) }, { _ in }),
    "map_filter_map": op { $0.map { $0 &+ 1 }.filter { _ in true }.map { $0 &+ 1 } },
    "default_if_empty": op { $0.ifEmpty(default: 0) },
    // The subject is the fallback of an empty source, as in the C workload.
    "switch_if_empty": op { Observable<Int64>.empty().ifEmpty(switchTo: $0) },
    "enumerated": op { $0.enumerated() },
    "compact_map": op { $0.compactMap { $0 % 2 != 0 ? $0 &+ 1 : nil } },
    "take_while_inclusive": op { $0.take(while: { _ in true }, behavior: .inclusive) },
    "take_until_predicate": op { $0.take(until: { _ in false }, behavior: .inclusive) },
    "using": op { src in Observable.using({ noResource }, observableFactory: { _ in src }) },
    // The subject is the fallback of a failed source.
    "catch_with": op { src in Observable<Int64>.error(RxError.unknown).catch { _ in src } },
    "flat_map_max": op { $0.map { Observable.from([$0, $0]) }.merge(maxConcurrent: 2) },
    "flat_map_max_just": op { $0.map { Observable.just($0) }.merge(maxConcurrent: 1) },
    "flat_map_first": op { $0.flatMapFirst { Observable.just($0) } },
    "retry_when": op { $0.retry(when: { $0 }) },
    // The C workload's hooks: on_next and after_next.
    "do_with_hooks": op { o in
      let tap = RxCount<Int64>()
      return o.do(onNext: { _ in tap.count &+= 1 }, afterNext: { _ in tap.count &+= 1 })
    },
    "debug": stdoutDiscarded(op { $0.debug("w") }),
    "share_forever": op { $0.share(replay: 1, scope: .forever) },
    "replay_all_ref_count": op { $0.replayAll().refCount() },
    "multicast_ref_count": op { $0.multicast(ReplaySubject<Int64>.create(bufferSize: 2)).refCount() },
    "merge_max": two { Observable.from([$0, $1]).merge(maxConcurrent: 1) },
    "skip_duration": timed { $0.skip(.microseconds(500), scheduler: $1) },
    "take_duration": timed { $0.take(for: .seconds(1_000_000), scheduler: $1) },
    // Times out after the first event and continues with the same subject.
    "timeout_to": timed { $0.timeout(.microseconds(500), other: $0, scheduler: $1) },
    "subscribe_dispose_subject": subscribeDispose { $0 },
    "subscribe_dispose_map": subscribeDispose { $0.map { $0 &+ 1 } },
    "subscribe_dispose_single": subscribeDispose { $0.single() },
    "subscribe_dispose_using": subscribeDispose { src in
      Observable.using({ noResource }, observableFactory: { _ in src })
    },
    "just_as_single": justThen { $0.asSingle().asObservable() },
    "just_as_maybe": justThen { $0.asMaybe().asObservable() },
    "just_subscribe_single": { n in
      let c = RxCount<Int64>()
      for k in 0..<Int64(n) {
        Observable.just(k).asSingle().subscribe(onSuccess: { _ in c.count &+= 1 },
                                                onFailure: { _ in c.count &+= 1 }).dispose()
      }
      return c.count
    },
    "just_subscribe_maybe": { n in
      let c = RxCount<Int64>()
      for k in 0..<Int64(n) {
        Observable.just(k).asMaybe().subscribe(onSuccess: { _ in c.count &+= 1 }, onError: { _ in c.count &+= 1 },
                                               onCompleted: { c.count &+= 1 }).dispose()
      }
      return c.count
    },
    "ignore_subscribe_completable": { n in
      let c = RxCount<Int64>()
      for k in 0..<Int64(n) {
        Observable.just(k).ignoreElements().asCompletable()
          .subscribe(onCompleted: { c.count &+= 1 }, onError: { _ in c.count &+= 1 }).dispose()
      }
      return c.count
    },
    "just_map_subscribe": { n in
      let c = RxCount<Int64>()
      for k in 0..<Int64(n) { Observable.just(k).map { $0 &+ 1 }.subscribe(c).dispose() }
      return c.count
    },
    "range_map_filter_scan": { n in
      drain(Observable<Int64>.range(start: 0, count: Int64(n)).map { $0 &+ 1 }.filter { _ in true }.scan(0, accumulator: &+))
    },
    "range_map": { n in drain(Observable<Int64>.range(start: 0, count: Int64(n)).map { $0 &+ 1 }) },
    "of": { n in drain(Observable.from(Array(0..<Int64(n)))) },
    "share_10": { n in
      let s = PublishSubject<Int64>(), o = s.asObservable().share(), cs = (0..<10).map { _ in RxCount<Int64>() }
      let ds = cs.map { o.subscribe($0) }
      for k in 0..<Int64(n) { s.onNext(k) }
      s.onCompleted()
      ds.forEach { $0.dispose() }
      return cs.reduce(0) { $0 + $1.count }
    },
    "interval": { n in
      let hs = HistoricalScheduler(), c = RxCount<Int>()
      let d = Observable<Int>.interval(.milliseconds(1), scheduler: hs).subscribe(c)
      for _ in 0..<n { hs.advanceTo(hs.clock.addingTimeInterval(0.001)) }
      d.dispose()
      return c.count
    },
    // One window for the whole run (a count never reached, a time span on a scheduler that
    // never advances), subscribed by the counter as it opens.
    "window": { n in
      let hs = HistoricalScheduler(), s = PublishSubject<Int64>(), c = RxCount<Int64>()
      var windows: [Disposable] = []
      let d = s.window(timeSpan: .seconds(1_000_000), count: 1 << 40, scheduler: hs)
        .subscribe(onNext: { windows.append($0.subscribe(c)) })
      for k in 0..<Int64(n) { s.onNext(k) }
      s.onCompleted()
      d.dispose()
      windows.forEach { $0.dispose() }
      return c.count
    },
    "repeat_element_take": { n in drain(Observable<Int64>.repeatElement(1).take(n)) },
    "create": { n in
      var emitter: AnyObserver<Int64>?
      let c = RxCount<Int64>()
      let d = Observable<Int64>.create { o in
        emitter = o
        return Disposables.create()
      }.subscribe(c)
      let e = emitter!
      for k in 0..<Int64(n) { e.on(.next(k)) }
      e.on(.completed)
      d.dispose()
      return c.count
    },
    "generate": { n in
      drain(Observable<Int64>.generate(initialState: 0, condition: { $0 < Int64(n) }, iterate: { $0 &+ 1 }))
    },
    "group_by": groupBy { $0 & 3 },
    "group_by_string_keys": groupBy { groupNames[Int($0 & 3)] },
    "range_flat_map_just": { n in drain(Observable<Int64>.range(start: 0, count: Int64(n)).flatMap { Observable.just($0) }) },
    "range_concat_map_of": { n in
      drain(Observable<Int64>.range(start: 0, count: Int64(n)).concatMap { Observable.from([$0, $0]) })
    },
  ]

  static let groupNames = ["north", "east", "south", "west"]

  /// using's resource: nothing to make or release (the C workload's is NULL).
  final class NoResource: Disposable { func dispose() {} }
  static let noResource = NoResource()

  static let impl = CatalogImpl(name: "rxswift", bodies: bodies, missing: [
    "last": "no last() (take_last is takeLast(1))",
    "buffer": "buffer needs a time span and a scheduler (buffer_time is the row)",
    "driver": "Driver is RxCocoa's (not on Linux)",
    "signal": "Signal is RxCocoa's (not on Linux)",
    "delay_subscription": "no immediate SchedulerType for a zero delay",
    "contended": "subjects require serialized callers",
    "debug_callback": "debug() prints to standard output only (debug is the row)",
    "subscribe_dispose_as_completable": "asCompletable() only for Observable<Never>: no element check",
    "observe_on_bounded": "no bounded observe(on:)", "observe_on_bounded_full": "no bounded observe(on:)",
    "pausable": "no pausable", "pausable_buffered": "no pausable",
    "rate_limit": "no rate limit", "rate_limit_full": "no rate limit",
    "retry_backoff": "no retry with backoff",
  ])
}
#else
/// RxSwift is in the package only when RXSWIFT_PATH names a checkout (see Package.swift).
let rxSwiftCatalog: CatalogImpl? = nil
#endif
