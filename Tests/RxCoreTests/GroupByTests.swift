import Synchronization
import XCTest
@_spi(RxC) @testable import RxCore

/// groupBy in the core: groups, their lifetime against the outer subscription
/// (RefCountDisposable), errors, the `Value` leaf and its keys, and threads.
final class GroupByTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertEqual(Resources.total, start, "live objects leaked") }

  /// Subscribes a recorder to each group as it arrives (inside on_next).
  final class GroupRecorder<Key: Hashable, Element>: Observer<GroupedObservable<Key, Element>> {
    var keys: [Key] = []
    var recorders: [Key: Recorder<Element>] = [:]
    var subscriptions: [Key: any Disposable] = [:]
    var events: [Event<GroupedObservable<Key, Element>>] = []
    let subscribe: Bool

    init(subscribe: Bool = true) { self.subscribe = subscribe }

    override func on(_ event: Event<GroupedObservable<Key, Element>>) {
      events.append(event)
      guard case .next(let group) = event else { return }
      keys.append(group.key)
      let r = Recorder<Element>()
      recorders[group.key] = r
      if subscribe { subscriptions[group.key] = group.subscribe(r) }
    }

    func disposeAll() { for d in subscriptions.values { d.dispose() } }
  }

  func testGroupsByKeyAndEndsEveryGroup() {
    let hot = HotSource<Int>()
    let g = GroupRecorder<Int, Int>()
    let d = hot.observable.groupBy { $0 % 3 }.subscribe(g)
    for v in 1...7 { hot.next(v) }
    hot.completed()
    XCTAssertEqual(g.keys, [1, 2, 0])
    XCTAssertEqual(g.recorders[1]?.elements, [1, 4, 7])
    XCTAssertEqual(g.recorders[2]?.elements, [2, 5])
    XCTAssertEqual(g.recorders[0]?.elements, [3, 6])
    for r in g.recorders.values { XCTAssertTrue(r.completed) }
    XCTAssertTrue(g.events.last.map { if case .completed = $0 { true } else { false } } ?? false)
    XCTAssertEqual(hot.disposals, 1)
    d.dispose()
    g.disposeAll()
    hot.end()
  }

  /// More keys than the sink keeps in its small list: the groups move into its dictionary
  /// part-way, and every element still reaches its own group; the end reaches all of them,
  /// and so does an error (string keys through the Value leaf, compared by content).
  func testManyKeysMoveFromTheListToTheDictionary() {
    for keys in [3, 8, 9, 40] {
      let hot = HotSource<Int>()
      let g = GroupRecorder<Int, Int>()
      let d = hot.observable.groupBy { $0 % keys }.subscribe(g)
      for v in 0..<(keys * 5) { hot.next(v) }
      hot.completed()
      XCTAssertEqual(g.keys, Array(0..<keys))
      for k in 0..<keys {
        XCTAssertEqual(g.recorders[k]?.elements, (0..<5).map { k + $0 * keys }, "key \(k) of \(keys)")
        XCTAssertTrue(g.recorders[k]?.completed ?? false)
      }
      d.dispose()
      g.disposeAll()
      hot.end()
    }
    let hot = HotSource<Int>()
    let g = GroupRecorder<Int, Int>()
    let d = hot.observable.groupBy { $0 % 12 }.subscribe(g)
    for v in 0..<30 { hot.next(v) }
    hot.error(OpTestError(code: 12))
    XCTAssertEqual(g.recorders.count, 12)
    for r in g.recorders.values { XCTAssertEqual(r.events.count, r.elements.count + 1) }
    d.dispose()
    g.disposeAll()
    hot.end()
  }

  func testKeySelectorErrorFailsEveryGroupAndDownstream() {
    let hot = HotSource<Int>()
    let g = GroupRecorder<Int, Int>()
    let d = hot.observable.groupBy { v -> Int in
      if v == 5 { throw OpTestError(code: 5) }
      return v % 2
    }.subscribe(g)
    for v in 1...6 { hot.next(v) }
    XCTAssertEqual(g.recorders[1]?.elements, [1, 3])
    XCTAssertEqual(g.recorders[0]?.elements, [2, 4])
    XCTAssertEqual(g.recorders[1]?.errorCode, 5)
    XCTAssertEqual(g.recorders[0]?.errorCode, 5)
    if case .error = g.events.last {} else { XCTFail("no error downstream") }
    XCTAssertEqual(hot.disposals, 1)
    d.dispose()
    g.disposeAll()
    hot.end()
  }

  func testSourceOutlivesTheOuterSubscriptionWhileAGroupIsSubscribed() {
    let hot = HotSource<Int>()
    let g = GroupRecorder<Int, Int>()
    let d = hot.observable.groupBy { $0 % 2 }.subscribe(g)
    hot.next(1)
    d.dispose()
    XCTAssertEqual(hot.disposals, 0)  // the group's subscription holds it
    hot.next(3)
    hot.next(2)  // a new group, which nobody gets any more
    XCTAssertEqual(g.keys, [1])
    XCTAssertEqual(g.recorders[1]?.elements, [1, 3])
    g.disposeAll()
    XCTAssertEqual(hot.disposals, 1)
    hot.end()
  }

  func testOuterDisposalWithoutGroupSubscriptionsDisposesTheSource() {
    let hot = HotSource<Int>()
    let g = GroupRecorder<Int, Int>(subscribe: false)
    let d = hot.observable.groupBy { $0 % 2 }.subscribe(g)
    hot.next(1)
    d.dispose()
    XCTAssertEqual(hot.disposals, 1)
    // A group subscribed after that gets nothing, not even a terminal event.
    let late = Recorder<Int>()
    let s = g.events.first!.element!.subscribe(late)
    XCTAssertTrue(late.events.isEmpty)
    s.dispose()
    hot.end()
  }

  func testGroupSubscribedAfterTheEndGetsTheEnd() {
    let hot = HotSource<Int>()
    let g = GroupRecorder<Int, Int>(subscribe: false)
    let d = hot.observable.groupBy { $0 }.subscribe(g)
    hot.next(1)
    hot.error(OpTestError(code: 9))
    let late = Recorder<Int>()
    let s = g.events.first!.element!.subscribe(late)
    XCTAssertEqual(late.errorCode, 9)
    s.dispose()
    d.dispose()
    hot.end()
  }

  func testSynchronousSourceStopsWhenNeitherDownstreamNorAGroupWantsMore() {
    var calls = 0
    let g = GroupRecorder<Int64, Int64>()
    let d = Observable.range(start: 0, count: 10).groupBy { v -> Int64 in
      calls += 1
      return v % 2
    }.take(1).subscribe(g)
    XCTAssertEqual(g.recorders[0]?.elements, [0, 2, 4, 6, 8])  // its group still wants them
    XCTAssertEqual(calls, 10)
    d.dispose()
    g.disposeAll()

    calls = 0
    let none = GroupRecorder<Int64, Int64>(subscribe: false)
    let d2 = Observable.range(start: 0, count: 1 << 40).groupBy { v -> Int64 in
      calls += 1
      return v % 2
    }.take(1).subscribe(none)
    XCTAssertEqual(calls, 1)
    d2.dispose()
  }

  func testRefCountDisposable() {
    final class Counting: Disposable {
      var count = 0
      func dispose() { count += 1 }
    }
    let underlying = Counting()
    let rc = RefCountDisposable(underlying)
    XCTAssertFalse(rc.hasDependents)
    let a = rc.retain(), b = rc.retain()
    XCTAssertTrue(rc.hasDependents)
    a.dispose()
    a.dispose()  // once only
    rc.dispose()
    XCTAssertEqual(underlying.count, 0)
    XCTAssertFalse(rc.isDisposed)
    b.dispose()
    XCTAssertFalse(rc.hasDependents)
    XCTAssertEqual(underlying.count, 1)
    XCTAssertTrue(rc.isDisposed)
    let c = rc.retain()  // after the end: holds nothing
    c.dispose()
    rc.dispose()
    XCTAssertEqual(underlying.count, 1)
  }

  // MARK: Value

  final class Text: ContentKey {
    let text: String
    init(_ text: String) { self.text = text }
    func keyEquals(_ other: AnyObject) -> Bool { (other as? Text)?.text == text }
    func hashKey(into hasher: inout Hasher) { hasher.combine(text) }
  }

  func testValueKeys() {
    XCTAssertNil(ValueKey(.none))
    XCTAssertNil(ValueKey(.double(.nan)))
    XCTAssertNil(ValueKey(.boxed(Text("a"))))
    XCTAssertEqual(ValueKey(.double(0.0)), ValueKey(.double(-0.0)))
    XCTAssertEqual(ValueKey(.double(0.0))?.hashValue, ValueKey(.double(-0.0))?.hashValue)
    XCTAssertNotEqual(ValueKey(.int(1)), ValueKey(.double(1)))
    XCTAssertNotEqual(ValueKey(.int(1)), ValueKey(.bool(true)))
    let a = ValueKey(content: Text("k")), b = ValueKey(content: Text("k"))
    XCTAssertEqual(a, b)
    XCTAssertEqual(a.hashValue, b.hashValue)
    XCTAssertNotEqual(a, ValueKey(content: Text("j")))
    var set = Set<ValueKey>()
    for v: Value in [.int(1), .int(1), .bool(true), .ptr(nil), .double(2)] { set.insert(ValueKey(v)!) }
    set.insert(a)
    set.insert(b)
    XCTAssertEqual(set.count, 5)
  }

  func testValueLeafGroupsByContentAndPacks() {
    let source: Observable<Value> = Observable.from(["ab", "cd", "ab", "ef", "cd"].map { Value.boxed(Text($0)) })
    let grouped = source.groupBy(
      keySelector: { v in
        guard case .boxed(let box) = v else { throw OpTestError(code: 1) }
        return ValueKey(content: box as! Text)
      }, pack: { .boxed($0) })
    XCTAssertTrue(grouped is ValueGroupByProducer)
    var counts: [String: Int] = [:]
    var subscriptions: [any Disposable] = []
    final class Each: Observer<Value> {
      let body: (Value) -> Void
      init(_ body: @escaping (Value) -> Void) { self.body = body }
      override func on(_ event: Event<Value>) { if case .next(let v) = event { body(v) } }
    }
    let d = grouped.subscribe(Each { v in
      guard case .boxed(let object) = v, let group = object as? ValueGroupedObservable,
        case .boxed(let key) = group.key.value, let text = (key as? Text)?.text
      else { return XCTFail("not a group") }
      subscriptions.append(group.subscribe(Each { _ in counts[text, default: 0] += 1 }))
    })
    XCTAssertEqual(counts, ["ab": 2, "cd": 2, "ef": 1])
    d.dispose()
    for s in subscriptions { s.dispose() }
  }

  // MARK: threads

  /// Groups subscribed and disposed on other threads while the source emits, and the outer
  /// subscription disposed in the middle: each subscriber sees its key's values in order,
  /// without gaps, and the source is disposed once the last subscription ends.
  func testGroupsSubscribedOnOtherThreads() {
    let subject = PublishSubject<Int>()
    final class Keep: Observer<GroupedObservable<Int, Int>>, @unchecked Sendable {
      let groups = Mutex<[Int: GroupedObservable<Int, Int>]>([:])
      override func on(_ event: Event<GroupedObservable<Int, Int>>) {
        if case .next(let g) = event { groups.withLock { $0[g.key] = g } }
      }
    }
    final class Checker: Observer<Int>, @unchecked Sendable {
      let key: Int
      var last = -1
      let failures = Atomic<Int>(0)
      init(key: Int) { self.key = key }
      override func on(_ event: Event<Int>) {
        guard case .next(let v) = event else { return }
        if v % 4 != key || (last >= 0 && v != last + 4) { failures.add(1, ordering: .relaxed) }
        last = v
      }
    }
    let keep = Keep()
    let outer = subject.groupBy { $0 % 4 }.subscribe(keep)
    let stop = Atomic<Bool>(false)
    let failures = Atomic<Int>(0)
    let holder = Checker(key: 1)
    let held = Mutex<(any Disposable)?>(nil)
    let stillSubscribed = Atomic<Bool>(false)
    runThreads(3) { i in
      if i == 0 {
        for v in 0..<100_000 {
          subject.on(.next(v))
          if v == 50_000 {
            let group = keep.groups.withLock { $0[1] }!
            held.withLock { $0 = group.subscribe(holder) }
            outer.dispose()
          }
        }
        stillSubscribed.store(subject.hasObservers, ordering: .relaxed)  // `held` keeps the source
        stop.store(true, ordering: .relaxed)
        return
      }
      while !stop.load(ordering: .relaxed) {
        for g in keep.groups.withLock({ Array($0.values) }) {
          let c = Checker(key: g.key)
          g.subscribe(c).dispose()
          failures.add(c.failures.load(ordering: .relaxed), ordering: .relaxed)
        }
      }
    }
    XCTAssertTrue(stillSubscribed.load(ordering: .relaxed))
    held.withLock { $0?.dispose() }
    XCTAssertFalse(subject.hasObservers)
    XCTAssertEqual(failures.load(ordering: .relaxed), 0)
    XCTAssertEqual(holder.failures.load(ordering: .relaxed), 0)
    XCTAssertEqual(holder.last, 99_997)
    keep.groups.withLock { $0 = [:] }
  }
}
