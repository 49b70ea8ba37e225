extension Observable {
  /// Groups the elements by `keySelector`: emits one `GroupedObservable` per new key, then
  /// each element to its group. The source's terminal event, and a `keySelector` error, go
  /// to every group and then downstream. Disposing the subscription keeps the source
  /// subscribed while any group is subscribed (see `GroupedObservable`).
  public func groupBy<Key: Hashable>(keySelector: @escaping (Element) throws -> Key)
    -> Observable<GroupedObservable<Key, Element>>
  {
    GroupByProducer(
      source: self,
      Grouping(
        keyAt: { try keySelector($0.pointee) }, makeGroup: { GroupedObservable(key: $0, subject: $1, refCount: $2) },
        pack: { $0 }))
  }
}

extension Observable where Element == Value {
  /// `groupBy` with `Value` keys (`keySelector` throws for a value that cannot be a key) and
  /// each group packed into one element by `pack` (the C layer's observable box).
  public func groupBy(
    keySelector: @escaping (Value) throws -> ValueKey, pack: @escaping (GroupedObservable<ValueKey, Value>) -> Value
  ) -> Observable<Value> {
    groupBy(keyAt: { try Value.withBorrowed(at: $0) { try keySelector($0) } }, pack: pack)
  }

  /// `groupBy` whose key selector reads the element where it is (no copy of a boxed
  /// element per call: what the C layer's key function needs).
  public func groupBy(
    keyAt: @escaping (UnsafePointer<Value>) throws -> ValueKey, pack: @escaping (GroupedObservable<ValueKey, Value>) -> Value
  ) -> Observable<Value> {
    ValueGroupByProducer(
      source: self, keyAt: keyAt,
      makeGroup: { ValueGroupedObservable(key: $0, subject: $1, refCount: $2) }, pack: pack)
  }
}

class GroupByProducer<Key: Hashable, Element, Result>: UnaryProducer<Element, Result, Grouping<Key, Element, Result>> {
  override func makeSink(_ observer: Observer<Result>, cancel: any Cancelable) -> Sink<Element, Result> {
    GroupBySink(parent: self, observer: observer, cancel: cancel)
  }
}

/// How `groupBy` keys its elements and makes and packs its groups.
struct Grouping<Key: Hashable, Element, Result> {
  typealias MakeGroup = (Key, PublishSubject<Element>, RefCountDisposable) -> GroupedObservable<Key, Element>
  /// The key of the element at the pointer (a selector over a value wraps itself).
  let keyAt: (UnsafePointer<Element>) throws -> Key
  let makeGroup: MakeGroup
  let pack: (GroupedObservable<Key, Element>) -> Result
}

/// The source subscription is owned by `refCount`: the outer subscription's disposal is
/// its primary dispose, and each group subscription a dependent. So this sink keeps
/// receiving (and feeding the groups) after downstream is gone; only `forwardOn` stops.
/// `groups` is touched only by `on`, which upstream serializes; groups are subscribed
/// from any thread through their subjects.
class GroupBySink<Key: Hashable, Element, Result>: Sink<Element, Result> {
  let parent: GroupByProducer<Key, Element, Result>
  let subscription = SingleAssignmentDisposable()
  let refCount: RefCountDisposable
  /// The groups: the first few in `few`, searched with `==`, and all of them in `groups`
  /// once there are more (for the usual handful of keys, comparing beats hashing).
  /// `few` is a fixed buffer of `fewMax` entries, `fewCount` of them set (not an array: reading
  /// an array held by the sink retains its storage around every search).
  let few = UnsafeMutablePointer<(key: Key, group: PublishSubject<Element>)>.allocate(capacity: GroupBySink.fewMax)
  var fewCount = 0
  var groups: [Key: PublishSubject<Element>] = [:]
  var done = false
  @usableFromInline static var fewMax: Int { 8 }

  init(parent: GroupByProducer<Key, Element, Result>, observer: Observer<Result>, cancel: any Cancelable) {
    self.parent = parent
    refCount = RefCountDisposable(subscription)
    super.init(observer: observer, cancel: cancel)
  }

  /// The source subscription goes under `refCount`: the groups' subscriptions hold it too.
  final override func subscribe(to source: Observable<Element>) -> any Disposable {
    subscription.trySet(source.subscribe(self))
    return refCount
  }

  override func on(_ event: Event<Element>) {
    // No key selector call once the source subscription is gone (a racing event).
    if done || refCount.isDisposed { return }
    switch event {
    case .next(let element): _withUnprotectedUnsafePointer(to: element) { next(at: $0) }
    case .error(let error): end(error)
    case .completed: end(nil)
    }
  }

  /// The key of the element at `element` (a hook: the Value leaf calls its selector at its
  /// concrete type). Called borrowed from the producer: loading the closure from it would
  /// retain its context.
  func key(at element: UnsafePointer<Element>) throws -> Key {
    try Unmanaged.passUnretained(parent)._withUnsafeGuaranteedRef { try $0.parameter.keyAt(element) }
  }

  /// An element, by pointer (what the Value leaf's `onNext(at:)` runs, after the same check
  /// as `on`): into its key's group, a new one announced first.
  @inline(__always) final func next(at element: UnsafePointer<Element>) {
    let key: Key
    do { key = try self.key(at: element) } catch {
      end(error)
      return
    }
    if let group = group(for: key) {
      group.emitNext(at: element)
      return
    }
    let group = PublishSubject<Element>()
    add(group, for: key)
    forwardOn(.next(parent.parameter.pack(parent.parameter.makeGroup(key, group, refCount))))
    group.emitNext(element.pointee)
  }

  @inline(__always) final func group(for key: Key) -> PublishSubject<Element>? {
    if !groups.isEmpty { return groups[key] }
    // Compared where they are: copying an entry out would retain both of its parts.
    var i = 0
    while i < fewCount {
      if withUnsafePointer(to: &few[i].key, { $0.pointee == key }) { return few[i].group }
      i += 1
    }
    return nil
  }

  final func add(_ group: PublishSubject<Element>, for key: Key) {
    if groups.isEmpty && fewCount < Self.fewMax {
      (few + fewCount).initialize(to: (key, group))
      fewCount += 1
      return
    }
    if groups.isEmpty {
      groups.reserveCapacity(fewCount * 2)
      let count = fewCount
      fewCount = 0
      for i in 0..<count { groups[few[i].key] = few[i].group }
      few.deinitialize(count: count)
    }
    groups[key] = group
  }

  /// Every group (in `few` or in `groups`).
  final var allGroups: [PublishSubject<Element>] {
    groups.isEmpty ? (0..<fewCount).map { few[$0].group } : Array(groups.values)
  }

  deinit {
    few.deinitialize(count: fewCount)
    few.deallocate()
  }

  /// Downstream may be gone while groups still want the source: polling producers stop
  /// only when nobody does (as the source subscription would then be disposed).
  override var wantsNoMoreEvents: Bool {
    done || refCount.isDisposed || (super.wantsNoMoreEvents && !refCount.hasDependents)
  }

  /// The source let go without a terminal event (a disposed subject): the groups' subjects
  /// are disposed too, which drops their subscribers.
  override func dropped() {
    if done { return }
    done = true
    SynchronousStop.noteStop()
    for group in allGroups { group.dispose() }
    super.dropped()
  }

  /// The terminal event: every group first, then downstream; then the source subscription
  /// ends whether or not groups are still subscribed (they heard the end).
  final func end(_ error: (any Error)?) {
    done = true
    SynchronousStop.noteStop()
    for group in allGroups { group.on(error.map { .error($0) } ?? .completed) }
    forwardOn(error.map { .error($0) } ?? .completed)
    subscription.dispose()
    dispose()
  }
}

// rx:hand-leaf: keeps the key selector at its concrete type, read through the producer unretained.
// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueGroupByProducer: GroupByProducer<ValueKey, Value, Value> {
  /// The selector at its concrete type (through the generic field it is called through a
  /// reabstraction thunk per element).
  let keyOfValue: (UnsafePointer<Value>) throws -> ValueKey

  /// `keyAt` taken here, not out of the generic `Grouping`: read back from there it would be
  /// wrapped in two reabstraction thunks, called per element.
  init(
    source: Observable<Value>, keyAt: @escaping (UnsafePointer<Value>) throws -> ValueKey,
    makeGroup: @escaping Grouping<ValueKey, Value, Value>.MakeGroup, pack: @escaping (GroupedObservable<ValueKey, Value>) -> Value
  ) {
    keyOfValue = keyAt
    super.init(source: source, Grouping(keyAt: keyAt, makeGroup: makeGroup, pack: pack))
  }

  override func makeSink(_ observer: Observer<Value>, cancel: any Cancelable) -> Sink<Value, Value> {
    ValueGroupBySink(parent: self, observer: observer, cancel: cancel)
  }

  override func run(_ observer: Observer<Value>, cancel: any Cancelable) -> (sink: any Disposable, subscription: any Disposable) { super.run(observer, cancel: cancel) }
}

// rx:hand-leaf: keeps the key selector at its concrete type, read through the producer unretained.
final class ValueGroupBySink: GroupBySink<ValueKey, Value, Value> {
  override func key(at element: UnsafePointer<Value>) throws -> ValueKey {
    try Unmanaged.passUnretained(unsafeDowncast(parent, to: ValueGroupByProducer.self))._withUnsafeGuaranteedRef {
      try $0.keyOfValue(element)
    }
  }
  override func on(_ event: Event<Value>) { super.on(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { if !done && !refCount.isDisposed { next(at: element) } }
  override var wantsNoMoreEvents: Bool { super.wantsNoMoreEvents }
  override func dropped() { super.dropped() }
}
