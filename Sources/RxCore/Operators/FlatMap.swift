// Over 400 lines: the sink, its inner observer and their Value leaves share one lock and the
// queue of waiting inners (flat_map, flat_map_max, merge); apart, their invariants would scatter.
import Synchronization

extension Observable {
  /// Maps each element to an observable and merges all of them. Completes when the source
  /// and every inner observable have completed; the first error ends everything.
  public func flatMap<Result>(_ selector: @escaping (Element) throws -> Observable<Result>) -> Observable<Result> {
    FlatMapProducer(source: self, selector: selector)
  }

  /// `flatMap` with at most `maxConcurrent` inner subscriptions at once (0: no limit); the
  /// others wait, in order, for one to complete.
  public func flatMap<Result>(
    maxConcurrent: Int, _ selector: @escaping (Element) throws -> Observable<Result>
  ) -> Observable<Result> {
    FlatMapProducer(source: self, selector: selector, maxConcurrent: maxConcurrent)
  }

  /// `flatMap` that follows one inner observable at a time (RxSwift's flatMapFirst): an
  /// element that arrives while an inner subscription is active is ignored, and `selector`
  /// is not called for it.
  public func flatMapFirst<Result>(_ selector: @escaping (Element) throws -> Observable<Result>) -> Observable<Result> {
    FlatMapProducer(source: self, selector: selector, exclusive: true)
  }
}

extension Observable where Element == Value {
  public func flatMap(_ selector: @escaping (Value) throws -> Observable<Value>) -> Observable<Value> {
    ValueFlatMapProducer(source: self, selector: selector)
  }

  public func flatMap(
    maxConcurrent: Int, _ selector: @escaping (Value) throws -> Observable<Value>
  ) -> Observable<Value> {
    ValueFlatMapProducer(source: self, selector: selector, maxConcurrent: maxConcurrent)
  }

  public func flatMapFirst(_ selector: @escaping (Value) throws -> Observable<Value>) -> Observable<Value> {
    ValueFlatMapProducer(source: self, selector: selector, exclusive: true)
  }

  /// `flatMap` whose selector may hand back an element instead of an observable
  /// (`.element(v)`: what a `just(v)` would emit, with no inner observable or subscription).
  @_spi(RxC) public func flatMap(
    maxConcurrent: Int = 0, selecting: @escaping (Value) throws -> FlatMapSelection
  ) -> Observable<Value> {
    ValueFlatMapProducer(source: self, selecting: selecting, maxConcurrent: maxConcurrent)
  }
}

/// What a Value flat_map's selector maps an element to (see `flatMap(maxConcurrent:selecting:)`).
@_spi(RxC) public typealias FlatMapSelection = FlatMapSink<Value, Value>.Selected

class FlatMapProducer<Source, Result>: Producer<Result> {
  let source: Observable<Source>
  let selector: (Source) throws -> Observable<Result>
  let maxConcurrent: Int
  let exclusive: Bool

  init(source: Observable<Source>, selector: @escaping (Source) throws -> Observable<Result>, maxConcurrent: Int = 0,
       exclusive: Bool = false)
  {
    self.source = source
    self.selector = selector
    self.maxConcurrent = maxConcurrent
    self.exclusive = exclusive
  }

  override func run(_ observer: Observer<Result>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = FlatMapSink(selector: selector, observer: observer, cancel: cancel, maxConcurrent: maxConcurrent,
                               exclusive: exclusive)
    let subscription = sink.run(source)
    return (consume sink, subscription)
  }
}

/// Inner events and the outer terminal event go through one Drain: state changes and
/// delivery happen on whichever thread drains, one at a time, with no lock held while
/// calling downstream. Outer elements are handled directly in `on` (upstream serializes
/// them): the inner observable is subscribed outside the drain, so one that emits while
/// being subscribed is delivered at once (and can be stopped by a done downstream) instead
/// of piling up in the queue.
///
/// Open, with inlinable bodies, so that a caller that knows the types can subclass it (and
/// `FlatMapInner`) and get specialized event paths; `select` and `makeInner` are its hooks.
@_spi(RxC) open class FlatMapSink<Source, Result>: Sink<Source, Result> {
  public enum Signal {
    case fail(any Error)
    case outerCompleted
    case next(Result)
    case innerCompleted(FlatMapInner<Source, Result>)
  }

  /// Nil for a subclass that overrides `select`.
  @usableFromInline let selector: ((Source) throws -> Observable<Result>)?
  @usableFromInline let drain = Drain<Signal>()
  @usableFromInline let group = CompositeDisposable()
  @usableFromInline let sourceSubscription = SingleAssignmentDisposable()
  /// Inner subscriptions not yet completed: raised by `on`, lowered in the drain.
  @usableFromInline let active = Atomic<Int>(0)
  @usableFromInline var sourceDone = false  // drain-owned
  /// Nil without a limit on concurrent inner subscriptions.
  @usableFromInline let limit: ConcurrencyLimit?
  /// flatMapFirst: outer elements are ignored while an inner subscription is active.
  @usableFromInline let exclusive: Bool

  public init(
    selector: ((Source) throws -> Observable<Result>)?, observer: Observer<Result>, cancel: any Cancelable,
    maxConcurrent: Int = 0, exclusive: Bool = false
  ) {
    self.selector = selector
    self.limit = maxConcurrent > 0 ? ConcurrencyLimit(max: maxConcurrent) : nil
    self.exclusive = exclusive
    super.init(observer: observer, cancel: cancel)
  }

  /// Whether inner subscriptions are limited: `select` of a subclass that knows its element
  /// type can then return a specialized just itself (otherwise a scalar becomes a generic one).
  public final var limitsConcurrency: Bool { limit != nil }

  open override func dispose() {
    super.dispose()
    limit?.clear()
  }

  /// What `select` maps an outer element to.
  public enum Selected {
    case observable(Observable<Result>)
    /// The one element of a `just`, for a subclass that can tell cheaply: it is submitted as
    /// is, with no inner subscription (scalar fusion: the same events, in the same order).
    case element(Result)
  }

  /// The inner observable for one outer element.
  @inlinable open func select(_ element: Source) throws -> Selected { .observable(try selector!(element)) }

  /// The observer of one inner subscription.
  @inlinable open func makeInner() -> FlatMapInner<Source, Result> { FlatMapInner(parent: self) }

  public final func run(_ source: Observable<Source>) -> any Disposable {
    group.insert(sourceSubscription)
    sourceSubscription.trySet(source.subscribe(self))
    return group
  }

  /// Runs a synchronous source's loop in place of subscribing to it (fusion: a subclass that
  /// knows the source, see `run(fusing:)`): its elements while this sink wants more, then
  /// completed. The same events and checks as the source's own loop, without its sink,
  /// disposer and the second `wantsNoMoreEvents` per element.
  @inlinable public final func run<S: SynchronousSource>(synchronous source: S) -> any Disposable
  where S.Element == Source {
    group.insert(sourceSubscription)
    var elements = source.pull()
    var stop = SynchronousStop()
    while !wantsNoMoreEvents(&stop), let element = elements.next() { onNext(element) }
    on(.completed)
    sourceSubscription.trySet(NopDisposable.shared)
    return group
  }

  /// `run(synchronous:)` over `element(i)` for each `i` in `0..<count` (merge's sources).
  @inlinable public final func run(count: Int, _ element: (Int) -> Source) -> any Disposable {
    group.insert(sourceSubscription)
    var i = 0
    var stop = SynchronousStop()
    while i < count, !wantsNoMoreEvents(&stop) {
      onNext(element(i))
      i += 1
    }
    on(.completed)
    sourceSubscription.trySet(NopDisposable.shared)
    return group
  }

  /// An inner observable whose events this sink can produce itself, with no inner
  /// subscription (fusion; a hook for the Value leaves, which know the synchronous sources):
  /// true if it did, and so the inner is done (`submitAll`).
  @inlinable open func runFused(_ inner: Observable<Result>) -> Bool { false }

  /// A synchronous inner's elements, as its subscription would have delivered them: each
  /// while this sink wants more. Nothing counts as active (it is done when this returns).
  /// With a concurrency limit it takes a place for that time, or returns false (no place
  /// free: it waits its turn as a subscription).
  @inlinable public final func submitAll<S: SynchronousSource>(_ inner: S) -> Bool where S.Element == Result {
    var elements = inner.pull()
    guard let limit else {
      while !wantsNoMoreEvents, let element = elements.next() { submitNext(element) }
      return true
    }
    if !limit.tryAdmit() { return false }
    while !wantsNoMoreEvents, let element = elements.next() { submitNext(element) }
    limit.finished()
    return true
  }

  /// A `just` for a scalar that must wait its turn under a concurrency limit (a hook for the
  /// Value leaves: a generic `Just`'s subscribe looks up types per call).
  @inlinable open func makeJust(_ element: Result) -> Observable<Result> { Just(element) }

  @inlinable @inline(__always) open override func on(_ event: Event<Source>) {
    switch event {
    case .next(let element): next(element)
    case .error(let error): submit(.fail(error))
    case .completed: submit(.outerCompleted)
    }
  }

  /// An outer element, unless nobody downstream wants more (`on`'s `.next`).
  @inlinable @inline(__always) public final func next(_ element: Source) {
    if wantsNoMoreEvents { return }
    onNext(element)
  }

  /// An outer element, once the caller checked `wantsNoMoreEvents`.
  @inlinable @inline(__always) public final func onNext(_ element: Source) {
    // The inner's completion lowers `active` in the drain: an element racing it from another
    // thread may still be ignored, as in RxSwift.
    if exclusive && active.load(ordering: .acquiring) > 0 { return }
    // Bound once, not assigned in branches: a `let` set in branches lives in memory, and each
    // read of it is a retained copy (a retain/release pair around `runFused`, per element).
    guard let inner = innerObservable(for: element) else { return }
    if runFused(inner) { return ValueJust.recycle(consume inner) }
    let observer = makeInner()
    // Raised before the outer completion can be submitted (upstream serializes on); a
    // waiting inner counts as active.
    active.add(1, ordering: .acquiringAndReleasing)
    if let limit {
      limit.admit { [self] in
        if isDisposed { return }
        observer.attach(inner.subscribe(observer))
      }
      return
    }
    observer.attach(inner.subscribe(observer))
  }

  /// The inner observable `element` selects, or nil when it was handled here: a scalar the
  /// selector gave (submitted, or made a `just` to wait for a place under a limit), or an error.
  @inlinable @inline(__always) final func innerObservable(for element: Source) -> Observable<Result>? {
    do {
      switch try select(element) {
      case .observable(let o): return o
      case .element(let value):
        // With a limit, a scalar takes a place like any inner observable, or waits its turn.
        if let limit {
          if !limit.tryAdmit() { return makeJust(value) }
          submit(.next(value))
          limit.finished()
          return nil
        }
        submitNext(value)
        return nil
      }
    } catch {
      submit(.fail(error))
      return nil
    }
  }

  // The drain and `self` reached unmanaged: otherwise one of them is retained and released
  // on every submit (the caller's reference keeps the sink, and its `let` the drain, alive).
  // Local inline funcs, not closure literals, around the drain: those stayed calls of their own.
  @inlinable public final func submit(_ signal: Signal) {
    let me = Unmanaged.passUnretained(self)
    @inline(__always) func into(_ drain: Drain<Signal>) { drain.submit(signal) { s in me._withUnsafeGuaranteedRef { $0.handle(s) } } }
    Unmanaged.passUnretained(drain)._withUnsafeGuaranteedRef(into)
  }

  /// An element: forwarded inline when the drain is free (where it is, not copied into a
  /// signal).
  @inlinable public final func submitNext(_ element: Result) {
    let me = Unmanaged.passUnretained(self)
    @inline(__always) func runInline() { forwardNext(element) }
    @inline(__always) func into(_ drain: Drain<Signal>) {
      drain.submit(.next(element), inline: runInline) { s in me._withUnsafeGuaranteedRef { $0.handle(s) } }
    }
    Unmanaged.passUnretained(drain)._withUnsafeGuaranteedRef(into)
  }

  /// `submitNext` of the element at `element` (an inner that takes `.next` by pointer): when
  /// the drain is free it is forwarded where the inner source holds it, copied only into a
  /// signal when the drain is held.
  @inlinable public final func submitNext(at element: UnsafePointer<Result>) {
    let me = Unmanaged.passUnretained(self)
    @inline(__always) func runInline() { forwardNext(at: element) }
    @inline(__always) func into(_ drain: Drain<Signal>) {
      drain.submit(.next(element.pointee), inline: runInline) { s in me._withUnsafeGuaranteedRef { $0.handle(s) } }
    }
    Unmanaged.passUnretained(drain)._withUnsafeGuaranteedRef(into)
  }


  @inlinable final func handle(_ signal: Signal) {
    if isDisposed { return }
    switch signal {
    case .fail(let error):
      forwardTerminal(.error(error))
    case .outerCompleted:
      sourceDone = true
      sourceSubscription.dispose()
      if active.load(ordering: .acquiring) == 0 { forwardTerminal(.completed) }
    case .next(let element):
      forwardNext(element)
    case .innerCompleted(let inner):
      inner.completed()
      let left = active.subtract(1, ordering: .acquiringAndReleasing).newValue
      if sourceDone && left == 0 { forwardTerminal(.completed) }
    }
  }
}

// rx:value-leaf name=ValueMergeInner args=Observable<Value>,Value on next={parent.submitNext(at: element)} super=wantsNoMoreEvents
/// The observer of one inner subscription, and the group's disposable for it (one object,
/// no SingleAssignmentDisposable): `attach` and `dispose` may race; whichever comes second
/// disposes the subscription.
///
/// It joins the parent's group only once `subscribe` has returned, and only if the inner has
/// not completed by then: an inner that completes while being subscribed (`just`) never
/// touches the group's lock. Disposing the parent meanwhile still reaches it: the group is
/// disposed by then, and inserting into a disposed group disposes what is inserted.
@_spi(RxC) open class FlatMapInner<Source, Result>: Observer<Result>, Disposable {
  @usableFromInline let parent: FlatMapSink<Source, Result>
  /// Written by `attach` before it sets `inserted`; read by whoever sees that bit.
  private var key: CompositeDisposable.Key?
  private let state = Atomic<UInt8>(0)
  private static var disposed: UInt8 { 1 }
  private static var subscriptionSet: UInt8 { 2 }
  private static var done: UInt8 { 4 }  // completed, as handled in the parent's drain
  private static var inserted: UInt8 { 8 }
  private var subscription: (any Disposable)?

  public init(parent: FlatMapSink<Source, Result>) { self.parent = parent }

  @inlinable @inline(__always) open override func on(_ event: Event<Result>) {
    switch event {
    case .next(let element): parent.submitNext(element)
    case .error(let error): parent.submit(.fail(error))
    case .completed:
      parent.submit(.innerCompleted(self))
      parent.limit?.finished()  // after the drain saw it, and outside the drain
    }
  }

  /// Called by the parent with what `subscribe` returned. Exactly one of `attach` and
  /// `completed` removes this from the group, whichever sets the second of done/inserted.
  public final func attach(_ d: any Disposable) {
    if state.load(ordering: .acquiring) & Self.done == 0, let key = parent.group.insert(self) {
      self.key = key
      if state.bitwiseOr(Self.inserted, ordering: .acquiringAndReleasing).oldValue & Self.done != 0 {
        parent.group.remove(for: key)
      }
    } else {
      dispose()  // completed already, or the group is disposed (and has disposed this)
    }
    subscription = d
    if state.bitwiseOr(Self.subscriptionSet, ordering: .acquiringAndReleasing).oldValue & Self.disposed != 0 {
      disposeSubscription()
    }
  }

  /// The inner completed (in the parent's drain).
  public final func completed() {
    if state.bitwiseOr(Self.done, ordering: .acquiringAndReleasing).oldValue & Self.inserted != 0 {
      parent.group.remove(for: key!)
    }
  }

  public final func dispose() {
    let previous = state.bitwiseOr(Self.disposed, ordering: .acquiringAndReleasing).oldValue
    if previous & Self.disposed == 0 && previous & Self.subscriptionSet != 0 { disposeSubscription() }
  }

  /// Only the caller that set the second of the two bits gets here.
  private func disposeSubscription() {
    let d = subscription
    subscription = nil
    d?.dispose()
  }

  @inlinable open override var wantsNoMoreEvents: Bool { parent.wantsNoMoreEvents }
}

// rx:hand-leaf: not a leaf of a generic producer: Value's flat_map, open for RxC's C-function leaf.
// Specialized for Value (see Value): the overrides inline the generic bodies. The selector is
// a `FlatMapSelection` one (the Swift overloads wrap theirs), so every caller gets the fused
// paths: a scalar, `just` or `of` inner without a subscription, a range or `of` source as a loop.
// Open for one more leaf: a caller whose selector is not a closure (the C layer calls a C
// function) overrides `makeSink` with a leaf sink of its own, which overrides what
// ValueFlatMapSink does, `select` its own way.
@_spi(RxC) open class ValueFlatMapProducer: Producer<Value> {
  public let source: Observable<Value>
  /// At most one of the two is set (neither for a leaf whose sink overrides `select`): a
  /// Swift selector is kept as it is, not wrapped in a `selecting` closure (one more call
  /// and thunk per element).
  let selector: ((Value) throws -> Observable<Value>)?
  let selecting: ((Value) throws -> FlatMapSelection)?
  public let maxConcurrent: Int
  /// flatMapFirst: outer elements are ignored while an inner subscription is active.
  public let exclusive: Bool

  public init(source: Observable<Value>, maxConcurrent: Int, exclusive: Bool = false) {
    self.source = source
    self.selector = nil
    self.selecting = nil
    self.maxConcurrent = maxConcurrent
    self.exclusive = exclusive
  }

  init(
    source: Observable<Value>, selector: ((Value) throws -> Observable<Value>)? = nil,
    selecting: ((Value) throws -> FlatMapSelection)? = nil, maxConcurrent: Int = 0, exclusive: Bool = false
  ) {
    self.source = source
    self.selector = selector
    self.selecting = selecting
    self.maxConcurrent = maxConcurrent
    self.exclusive = exclusive
  }

  public final override func subscribe(_ observer: Observer<Value>) -> any Disposable { super.subscribe(observer) }

  public final override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = makeSink(observer, cancel: cancel)
    let subscription = sink.run(fusing: source)
    return (consume sink, subscription)
  }

  open func makeSink(_ observer: Observer<Value>, cancel: any Cancelable) -> FlatMapSink<Value, Value> {
    ValueFlatMapSink(selector: selector, selecting: selecting, observer: observer, cancel: cancel,
                     maxConcurrent: maxConcurrent, exclusive: exclusive)
  }
}

// rx:hand-leaf: takes a FlatMapSelection selector at its concrete type and fuses Value inners.
final class ValueFlatMapSink: FlatMapSink<Value, Value> {
  // Kept here, not in the generic class's `selector`, whose closure type is generic: a
  // call through it goes through a reabstraction thunk.
  let valueSelector: ((Value) throws -> Observable<Value>)?
  let selecting: ((Value) throws -> FlatMapSelection)?

  init(
    selector: ((Value) throws -> Observable<Value>)?, selecting: ((Value) throws -> FlatMapSelection)?,
    observer: Observer<Value>, cancel: any Cancelable, maxConcurrent: Int, exclusive: Bool
  ) {
    self.valueSelector = selector
    self.selecting = selecting
    super.init(selector: nil, observer: observer, cancel: cancel, maxConcurrent: maxConcurrent, exclusive: exclusive)
  }

  override func select(_ element: Value) throws -> Selected {
    if let selecting { return try selecting(element) }
    return .observable(try valueSelector!(element))
  }
  override func on(_ event: Event<Value>) { super.on(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { super.on(.next(Value.copy(at: element))) }
  override func dispose() { super.dispose() }
  override func makeInner() -> FlatMapInner<Value, Value> { ValueFlatMapInner(parent: self) }
  override func makeJust(_ element: Value) -> Observable<Value> { ValueJust(element) }
  override func runFused(_ inner: Observable<Value>) -> Bool { runFusedValue(inner) }
}

// rx:hand-leaf: public (RxC's flat_map leaf makes it); the generator writes internal leaves.
@_spi(RxC) public final class ValueFlatMapInner: FlatMapInner<Value, Value> {
  public override func on(_ event: Event<Value>) { super.on(event) }
  public override var takesNextByPointer: Bool { true }
  public override func onNext(at element: UnsafePointer<Value>) { parent.submitNext(at: element) }
  public override var wantsNoMoreEvents: Bool { super.wantsNoMoreEvents }
}

// Fusion for the Value leaves (each overrides `runFused` with `runFusedValue`, and starts with
// `run(fusing:)`).
extension FlatMapSink where Result == Value {
  /// A `just` or `of` inner, delivered without a subscription.
  @inlinable public final func runFusedValue(_ inner: Observable<Value>) -> Bool {
    if type(of: inner) == ValueJust.self || type(of: inner) == Just<Value>.self {
      return submitAll(unsafeDowncast(inner, to: Just<Value>.self))
    }
    if type(of: inner) == ValueSequenceObservable.self {
      return submitAll(unsafeDowncast(inner, to: ValueSequenceObservable.self))
    }
    return false
  }
}

extension FlatMapSink where Source == Value {
  /// Subscribes to `source`, or runs its loop if it is a synchronous source.
  @inlinable public final func run(fusing source: Observable<Value>) -> any Disposable {
    if type(of: source) == ValueRange.self { return run(synchronous: unsafeDowncast(source, to: ValueRange.self)) }
    if type(of: source) == ValueSequenceObservable.self {
      return run(synchronous: unsafeDowncast(source, to: ValueSequenceObservable.self))
    }
    return run(source)
  }
}
