#if canImport(OpenCombine)
import Glibc
import OpenCombine

/// The catalog on OpenCombine 0.14.0 with Int64 payloads, wherever it has the operator (the
/// closest Combine spelling; `missing` says why a row is n/a). Subscribers are sinks that
/// count values and completions.
final class OCCount { var count = 0 }

/// A virtual-time scheduler for the time operators (OpenCombine has none): actions run when
/// `advance(by:)` passes their due time, as with RxCore's VirtualTimeScheduler and librxc's
/// test scheduler.
final class OCVirtualScheduler: OpenCombine.Scheduler {
  typealias SchedulerOptions = Never
  struct SchedulerTimeType: Strideable {
    typealias Stride = ImmediateScheduler.SchedulerTimeType.Stride
    var ns: Int
    func distance(to other: SchedulerTimeType) -> Stride { Stride(other.ns - ns) }
    func advanced(by n: Stride) -> SchedulerTimeType { SchedulerTimeType(ns: ns + n.magnitude) }
  }
  final class Item {
    var due: Int
    let period: Int?
    let action: () -> Void
    var cancelled = false
    init(_ due: Int, _ period: Int?, _ action: @escaping () -> Void) {
      self.due = due; self.period = period; self.action = action
    }
  }
  private var clock = 0
  /// Sorted by due time, first come first served among equals; `head` is the next one.
  private var queue: [Item] = []
  private var head = 0

  var now: SchedulerTimeType { SchedulerTimeType(ns: clock) }
  var minimumTolerance: SchedulerTimeType.Stride { .init(0) }

  private func insert(_ item: Item) {
    var i = queue.count
    while i > head && queue[i - 1].due > item.due { i -= 1 }
    queue.insert(item, at: i)
  }
  func schedule(options: Never?, _ action: @escaping () -> Void) { insert(Item(clock, nil, action)) }
  func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
                _ action: @escaping () -> Void) {
    insert(Item(date.ns, nil, action))
  }
  func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
                tolerance: SchedulerTimeType.Stride, options: Never?,
                _ action: @escaping () -> Void) -> Cancellable {
    let item = Item(date.ns, interval.magnitude, action)
    insert(item)
    return AnyCancellable { item.cancelled = true }
  }
  func advance(by ns: Int) {
    let end = clock + ns
    while head < queue.count && queue[head].due <= end {
      let item = queue[head]
      head += 1
      if head > 1024 && head * 2 > queue.count {
        queue.removeFirst(head)
        head = 0
      }
      if item.cancelled { continue }
      clock = item.due
      item.action()
      if let p = item.period, !item.cancelled {
        item.due += p
        insert(item)
      }
    }
    clock = end
  }
}

/// The error of the failed source that catch_with and timeout_to recover from.
struct OCFailure: Error {}

/// print(to:)'s stream for the debug rows: a C stream on /dev/null (debug, as the C workload
/// writes its lines) or nothing at all (debug_callback, whose C callback ignores them).
final class OCLineSink: TextOutputStream {
  private let file: UnsafeMutablePointer<FILE>?
  init(devNull: Bool) { file = devNull ? fopen("/dev/null", "w") : nil }
  deinit { if let file { fclose(file) } }
  func write(_ string: String) {
    if let file { fputs(string, file) }
  }
}

enum OpenCombineCatalog {
  static func sink<P: Publisher>(_ p: P, _ c: OCCount) -> AnyCancellable {
    p.sink(receiveCompletion: { _ in c.count &+= 1 }, receiveValue: { _ in c.count &+= 1 })
  }

  /// PassthroughSubject -> make -> sink; n values, then finished.
  static func op<P: Publisher>(_ make: @escaping (PassthroughSubject<Int64, Never>) -> P) -> CatalogBody {
    op(Never.self, make)
  }
  static func op<F: Error, P: Publisher>(_ f: F.Type, _ make: @escaping (PassthroughSubject<Int64, F>) -> P) -> CatalogBody {
    { n in
      let s = PassthroughSubject<Int64, F>(), c = OCCount()
      let k = sink(make(s), c)
      for i in 0..<Int64(n) { s.send(i) }
      s.send(completion: .finished)
      k.cancel()
      return c.count
    }
  }

  static func two<P: Publisher>(_ make: @escaping (PassthroughSubject<Int64, Never>, PassthroughSubject<Int64, Never>) -> P) -> CatalogBody {
    { n in
      let a = PassthroughSubject<Int64, Never>(), b = PassthroughSubject<Int64, Never>(), c = OCCount()
      let k = sink(make(a, b), c)
      for i in 0..<Int64(n) {
        a.send(i)
        b.send(i)
      }
      k.cancel()
      return c.count
    }
  }

  static func timed<P: Publisher>(_ make: @escaping (PassthroughSubject<Int64, Never>, OCVirtualScheduler) -> P) -> CatalogBody {
    { n in
      let s = PassthroughSubject<Int64, Never>(), vs = OCVirtualScheduler(), c = OCCount()
      let k = sink(make(s, vs), c)
      for i in 0..<Int64(n) {
        s.send(i)
        vs.advance(by: 1000)
      }
      k.cancel()
      return c.count
    }
  }

  static func subscribeDispose<P: Publisher>(_ make: @escaping (PassthroughSubject<Int64, Never>) -> P) -> CatalogBody {
    { n in
      let s = PassthroughSubject<Int64, Never>(), c = OCCount()
      let p = make(s)
      for i in 0..<Int64(n) {
        let k = sink(p, c)
        s.send(i)
        k.cancel()
      }
      return c.count
    }
  }

  static func drain<P: Publisher>(_ p: P) -> Int {
    let c = OCCount()
    sink(p, c).cancel()
    return c.count
  }

  static let bodies: [String: CatalogBody] = [
    "subject_publish": op { $0 },
    "subject_behavior": { n in
      let s = CurrentValueSubject<Int64, Never>(0), c = OCCount()
      let k = sink(s, c)
      for i in 0..<Int64(n) { s.send(i) }
      s.send(completion: .finished)
      k.cancel()
      return c.count
    },
    "map": op { $0.map { $0 &+ 1 } },
    "filter": op { $0.filter { _ in true } },
    "scan": op { $0.scan(0, &+) },
    "reduce": op { $0.reduce(0, &+) },
    "take": op { $0.prefix(Int.max) },
    "skip": op { $0.dropFirst(1) },
    "take_while": op { $0.prefix(while: { _ in true }) },
    "skip_while": op { $0.drop(while: { _ in false }) },
    "distinct": op { $0.removeDuplicates() },
    "distinct_eq": op { $0.removeDuplicates(by: { $0 == $1 }) },
    // output(at:) is output(in: index...index): Int.max would overflow.
    "element_at": op { $0.output(at: Int.max - 1) },
    "first": op { $0.first() },
    "last": op { $0.last() },
    "ignore": op { $0.ignoreOutput() },
    "to_array": op { $0.collect() },
    "buffer": op { $0.collect(10) },
    "start_with": op { $0.prepend(1) },
    "flat_map": op { $0.flatMap { Just($0) } },
    "flat_map_latest": op { $0.map { Just($0) }.switchToLatest() },
    // concat_map: flatMap with one inner subscription at a time.
    "concat_map": op { $0.flatMap(maxPublishers: .max(1)) { [$0, $0].publisher } },
    "catch": op(Error.self) { $0.catch { _ in Just(0) } },
    "catch_return": op(Error.self) { $0.replaceError(with: 0) },
    "retry": op(Error.self) { $0.retry(3) },
    "do": op { s in
      let tap = OCCount()
      return s.handleEvents(receiveOutput: { _ in tap.count &+= 1 })
    },
    "take_until": op { $0.prefix(untilOutputFrom: Empty<Int64, Never>(completeImmediately: false)) },
    "skip_until": op { $0.drop(untilOutputFrom: Just<Int64>(0)) },
    "share": op { $0.share() },
    "publish_ref_count": op { $0.multicast(subject: PassthroughSubject<Int64, Never>()).autoconnect() },
    "observe_on": op { $0.receive(on: ImmediateScheduler.shared) },
    "subscribe_on": op { $0.subscribe(on: ImmediateScheduler.shared) },
    "zip": two { $0.zip($1) { $0 &+ $1 } },
    "concat": two { $0.append($1) },
    "debounce": timed { $0.debounce(for: .init(500), scheduler: $1) },
    "throttle": timed { $0.throttle(for: .init(500), scheduler: $1, latest: true) },
    "delay": timed { $0.delay(for: .init(500), scheduler: $1) },
    "timeout": timed { $0.timeout(.init(1_000_000), scheduler: $1) },
    "switch_latest": { n in
      let s = PassthroughSubject<Just<Int64>, Never>(), c = OCCount()
      let k = sink(s.switchToLatest(), c)
      for i in 0..<Int64(n) { s.send(Just(i)) }
      k.cancel()
      return c.count
    },
    "map_filter_map": op { $0.map { $0 &+ 1 }.filter { _ in true }.map { $0 &+ 1 } },
    "default_if_empty": op { $0.replaceEmpty(with: 0) },
    "compact_map": op { $0.compactMap { $0 % 2 != 0 ? $0 &+ 1 : nil } },
    // The subject is the fallback of a failed source, as in the C workload.
    "catch_with": op { s in Fail<Int64, OCFailure>(error: OCFailure()).catch { _ in s } },
    "flat_map_max": op { $0.flatMap(maxPublishers: .max(2)) { [$0, $0].publisher } },
    "flat_map_max_just": op { $0.flatMap(maxPublishers: .max(1)) { Just($0) } },
    "debug": op { $0.print("w", to: OCLineSink(devNull: true)) },
    "debug_callback": op { $0.print("w", to: OCLineSink(devNull: false)) },
    // merge: flatMap over the sources (0.14.0 has no Merge); merge_max with one at a time.
    "merge": two { [$0, $1].publisher.flatMap { $0 } },
    "merge_max": two { [$0, $1].publisher.flatMap(maxPublishers: .max(1)) { $0 } },
    // skip/take for a duration: drop/prefix until a delayed Just fires.
    "skip_duration": timed { $0.drop(untilOutputFrom: Just(0).delay(for: .init(500), scheduler: $1)) },
    "take_duration": timed { $0.prefix(untilOutputFrom: Just(0).delay(for: .init(1_000_000_000_000_000), scheduler: $1)) },
    // Times out after the first event and continues with the same subject.
    "timeout_to": timed { s, vs in
      s.setFailureType(to: OCFailure.self).timeout(.init(500), scheduler: vs, customError: { OCFailure() })
        .catch { _ in s }
    },
    "subscribe_dispose_subject": subscribeDispose { $0 },
    "subscribe_dispose_map": subscribeDispose { $0.map { $0 &+ 1 } },
    "just_map_subscribe": { n in
      let c = OCCount()
      for i in 0..<Int64(n) { sink(Just(i).map { $0 &+ 1 }, c).cancel() }
      return c.count
    },
    "range_map_filter_scan": { n in drain((0..<Int64(n)).publisher.map { $0 &+ 1 }.filter { _ in true }.scan(0, &+)) },
    "range_map": { n in drain((0..<Int64(n)).publisher.map { $0 &+ 1 }) },
    "of": { n in drain(Array(0..<Int64(n)).publisher) },
    // A Sequence publisher of an endless sequence, prefixed; and of an unfolding one.
    "repeat_element_take": { n in drain(sequence(first: Int64(1)) { $0 }.publisher.prefix(n)) },
    "generate": { n in drain(sequence(first: Int64(0)) { $0 &+ 1 < Int64(n) ? $0 &+ 1 : nil }.publisher) },
    "share_10": { n in
      let s = PassthroughSubject<Int64, Never>(), o = s.share(), cs = (0..<10).map { _ in OCCount() }
      let ks = cs.map { sink(o, $0) }
      for i in 0..<Int64(n) { s.send(i) }
      s.send(completion: .finished)
      ks.forEach { $0.cancel() }
      return cs.reduce(0) { $0 + $1.count }
    },
    "range_flat_map_just": { n in drain((0..<Int64(n)).publisher.flatMap { Just($0) }) },
    "range_concat_map_of": { n in drain((0..<Int64(n)).publisher.flatMap(maxPublishers: .max(1)) { [$0, $0].publisher }) },
    "contended": { n in
      // The subject's conduit serializes delivery to its subscriber (a per-conduit lock).
      let s = PassthroughSubject<Int64, Never>()
      final class Total: @unchecked Sendable { var sum: Int64 = 0 }
      let total = Total()
      let k = s.sink { total.sum &+= $0 }
      runContended(n) { t, count in
        let base = Int64(t * count)
        for i in 0..<Int64(count) { s.send(base + i) }
      }
      k.cancel()
      check("OpenCombine contended sum", total.sum, contendedSum(n))
      return n
    },
  ]

  static let impl = CatalogImpl(name: "opencombine", bodies: bodies, missing: [
    "subject_replay": "no replay subject", "subject_replay_all": "no replay subject",
    "subject_async": "no async subject", "subject_publish_relay": "no relays",
    "create": "no Observable.create (a custom Publisher is the Combine way)",
    "subject_behavior_relay": "no relays", "take_last": "no takeLast (last() is the last row)",
    "materialize": "no materialize", "dematerialize": "no dematerialize",
    "share_replay": "no share(replay:)", "replay_ref_count": "no replay multicast",
    "driver": "no Driver", "delay_subscription": "no delaySubscription",
    "combine": "no combineLatest in 0.14.0",
    "with_latest": "no withLatestFrom", "sample": "no sample", "amb": "no amb",
    "buffer_time": "no collect(.byTime) in 0.14.0",
    "interval": "Timer publisher is Foundation's (OpenCombineFoundation)",
    "subject_replay_relay": "no relays", "switch_if_empty": "no switchIfEmpty",
    "enumerated": "no enumerated", "take_while_inclusive": "prefix(while:) has no inclusive form",
    "take_until_predicate": "no prefix(until:) predicate", "using": "no using",
    "flat_map_first": "no flatMapFirst", "retry_when": "no retry(when:)",
    "do_with_hooks": "handleEvents has no after-output hook", "share_forever": "no share(replay:)",
    "replay_all_ref_count": "no replay multicast", "multicast_ref_count": "no replay subject to multicast through",
    "signal": "no Signal", "observe_on_bounded": "no bounded receive(on:)",
    "observe_on_bounded_full": "no bounded receive(on:)", "pausable": "no pausable",
    "pausable_buffered": "no pausable", "rate_limit": "no rate limit", "rate_limit_full": "no rate limit",
    "retry_backoff": "no retry with backoff", "window": "no window",
    "group_by": "no groupBy", "group_by_string_keys": "no groupBy",
    "subscribe_dispose_single": "no Single", "subscribe_dispose_using": "no using",
    "just_as_single": "no Single", "just_as_maybe": "no Maybe",
    "subscribe_dispose_as_completable": "no Completable", "just_subscribe_single": "no Single",
    "just_subscribe_maybe": "no Maybe", "ignore_subscribe_completable": "no Completable",
  ])
}
#else
/// Without OpenCombine in the package (RXC_BENCH_RXCORE_ONLY=1, see Package.swift) its rows are n/a.
enum OpenCombineCatalog { static let impl = CatalogImpl(name: "opencombine", bodies: [:]) }
#endif
