extension Observable {
  /// Maps each element to an observable and mirrors only the latest one, disposing the
  /// previous inner subscription when a new element arrives.
  // rx:value-overload
  public func flatMapLatest<Result>(_ selector: @escaping (Element) throws -> Observable<Result>) -> Observable<Result> {
    SelectingProducer<Element, Result, SwitchSink<Element, Result>>(source: self, InnerSelector(select: selector))
  }

  /// Mirrors the latest inner observable of a stream of observables.
  public func switchLatest<Inner>() -> Observable<Inner> where Element == Observable<Inner> {
    SelectingProducer<Element, Inner, SwitchSink<Element, Inner>>(source: self, InnerSelector(select: { $0 }))
  }
}

extension Observable where Element == Observable<Value> {
  /// `switchLatest` of Value streams, chosen over the generic one (whose sinks would run
  /// unspecialized).
  public func switchLatest() -> Observable<Value> { ValueSwitchLatestProducer(source: self, InnerSelector(select: { $0 })) }
}

/// What goes through a SwitchSink's drain.
enum SwitchSignal<Result>: SelectingSignal {
  case fail(any Error)
  case outerCompleted
  case switched(UInt64)
  case inner(Event<Result>, UInt64)
}

/// Inner events and the outer terminal event are serialized through one Drain (see
/// FlatMapSink); outer elements are handled directly in `on`, so the new inner observable
/// is subscribed outside the drain. Each inner subscription carries an id, announced to
/// the drain (`.switched`) before it is subscribed; events of a superseded inner are ignored.
///
/// A synchronous inner (a bare element from `select`, or a `just` or `of` the leaf knows) has
/// no subscription: its switch, elements and completion go through the drain in one pass.
class SwitchSink<Source, Result>: SelectingSink<Source, Result, SwitchSignal<Result>> {
  typealias Signal = SwitchSignal<Result>

  // Touched only by `on`, which upstream serializes.
  var nextId: UInt64 = 0
  /// An inner subscription was put in `innerSubscription` and not yet replaced: a
  /// synchronous inner then has one to dispose before its elements.
  var innerSet = false
  // Drain-owned state.
  var latest: UInt64 = 0
  var hasLatest = false
  var sourceDone = false

  override func selected(_ selected: consuming Selected) {
    nextId &+= 1
    let id = nextId
    // Moved out, so a just left solely owned is recycled; bound in its case, not assigned to a
    // `let` declared before (that lives in memory: each read of it a retained copy).
    switch consume selected {
    case .element(let value): _withUnprotectedUnsafePointer(to: value) { switchTo(element: $0, id: id) }
    case .observable(let inner): if switchTo(observable: inner, id: id) { ValueJust.recycle(consume inner) }
    }
  }

  /// Switches to `inner`, borrowed (a leaf whose elements are observables reads them in
  /// place); true if it ran as a synchronous inner, with no subscription.
  @inline(__always) final func switchTo(observable inner: Observable<Result>, id: UInt64) -> Bool {
    if runFused(inner, id: id) { return true }
    submit(.switched(id))
    let observer = makeInner(id: id)
    innerSet = true
    innerSubscription.set(observer)  // disposes the previous inner
    observer.attach(inner.subscribe(observer))
    return false
  }

  /// The observer of the inner subscription `id` (a hook for the Value leaf).
  func makeInner(id: UInt64) -> SwitchInner<Source, Result> { SwitchInner(parent: self, tag: id) }

  /// Runs a synchronous inner (see `SynchronousSource`) without a subscription; false if
  /// `inner` is not one this sink knows (a hook for the Value leaf).
  func runFused(_ inner: Observable<Result>, id: UInt64) -> Bool { false }

  /// A synchronous inner's events as its subscription would have delivered them.
  final func submitAll<S: SynchronousSource>(_ inner: S, id: UInt64) where S.Element == Result {
    switchTo(inner.pull(), id: id)
  }

  /// The switch to inner `id`, whose elements are at hand: the previous inner disposed
  /// first, then each element while this sink wants more, then the completion. With no
  /// previous subscription to dispose and the drain free, all in one pass through the drain.
  final func switchTo<I: IteratorProtocol>(_ elements: consuming I, id: UInt64) where I.Element == Result {
    var elements = elements
    @inline(__always) func deliver(_ inline: Bool) {  // (a closure literal stayed a call)
      while let element = elements.next() {
        if wantsNoMoreEvents { return }
        if inline { handleInner(.next(element), id) } else { submitInner(.next(element), id) }
      }
    }
    switchTo(id: id, deliver)
  }

  /// `switchTo` of a single element, read where it is (a selector's bare element).
  final func switchTo(element: UnsafePointer<Result>, id: UInt64) {
    @inline(__always) func deliver(_ inline: Bool) {  // (a closure literal stayed a call)
      if wantsNoMoreEvents { return }
      if !inline { return submitInnerNext(at: element, id) }
      if !isDisposed { forwardNext(at: element) }  // inner `id` is the latest: it was just switched to
    }
    switchTo(id: id, deliver)
  }

  /// The switch to inner `id` around `elements`, which delivers them (`inline`: in place,
  /// holding the drain; else through it).
  @inline(__always)
  private func switchTo(id: UInt64, _ elements: (_ inline: Bool) -> Void) {
    if !innerSet {
      let me = Unmanaged.passUnretained(self)
      let queued: (Signal) -> Void = { item in me._withUnsafeGuaranteedRef { $0.handle(item) } }
      if drain.enter(queued) {
        handle(.switched(id))
        elements(true)
        handleInner(.completed, id)
        drain.exit(queued)
        return
      }
    }
    submit(.switched(id))
    if innerSet {
      innerSet = false
      innerSubscription.set(nil)
    }
    elements(false)
    submitInner(.completed, id)
  }

  override func submitSignal(_ signal: Signal) { submit(signal) }

  final func submit(_ signal: Signal) { drain.submit(signal) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item) } } }

  /// An inner event: inline when the drain is free (the event is handled where it is, not
  /// copied into a signal).
  final func submitInner(_ event: Event<Result>, _ id: UInt64) {
    @inline(__always) func runInline() { handleInner(event, id) }
    drain.submit(.inner(event, id), inline: runInline) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item) } }
  }

  /// `submitInner(.next)` of the element at `element` (an inner that takes `.next` by
  /// pointer): forwarded where it is when the drain is free.
  final func submitInnerNext(at element: UnsafePointer<Result>, _ id: UInt64) {
    @inline(__always) func runInline() { if id == latest { forwardNext(at: element) } }
    drain.submit(.inner(.next(element.pointee), id), inline: runInline) {
      [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item) }
    }
  }

  private func handleInner(_ event: Event<Result>, _ id: UInt64) {
    if isDisposed { return }
    guard id == latest else { return }
    switch event {
    case .next(let element): forwardNext(element)
    case .error(let error): forwardTerminal(.error(error))
    case .completed:
      hasLatest = false
      if sourceDone { forwardTerminal(.completed) }
    }
  }

  private func handle(_ signal: Signal) {
    if isDisposed { return }
    switch signal {
    case .fail(let error):
      forwardTerminal(.error(error))
    case .switched(let id):
      latest = id
      hasLatest = true
    case .outerCompleted:
      sourceDone = true
      sourceSubscription.dispose()
      if !hasLatest { forwardTerminal(.completed) }
    case .inner(let event, let id):
      handleInner(event, id)
    }
  }
}

// rx:value-leaf on next={parent.submitInnerNext(at: element, tag)} super=wantsNoMoreEvents
// rx:value-leaf name=ValueSwitchLatestInner args=Observable<Value>,Value on next={parent.submitInnerNext(at: element, tag)} super=wantsNoMoreEvents
/// The observer of one inner subscription (`tag`: its id), and its disposable.
class SwitchInner<Source, Result>: SubscribedObserver<Result, SwitchSink<Source, Result>, UInt64> {
  override func on(_ event: Event<Result>) { parent.submitInner(event, tag) }
  override var wantsNoMoreEvents: Bool { parent.wantsNoMoreEvents }
}

// rx:hand-leaf: calls its FlatMapSelection selector (`selecting`) and fuses Value inners.
final class ValueSwitchSink: SwitchSink<Value, Value> {
  override func select(at element: UnsafePointer<Value>) throws -> Selected { try selecting(element) }
  override func on(_ event: Event<Value>) { super.on(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { next(at: element) }
  override func makeInner(id: UInt64) -> SwitchInner<Value, Value> { ValueSwitchInner(parent: self, tag: id) }

  override func runFused(_ inner: Observable<Value>, id: UInt64) -> Bool { runFusedValue(inner, id: id) }
}

extension SwitchSink where Result == Value {
  /// A `just` or `of` inner (recognized by class, as flat_map's fusion does): the Value
  /// leaves' `runFused`.
  @inline(__always)
  final func runFusedValue(_ inner: Observable<Value>, id: UInt64) -> Bool {
    if type(of: inner) == ValueJust.self || type(of: inner) == Just<Value>.self {
      submitAll(unsafeDowncast(inner, to: Just<Value>.self), id: id)
      return true
    }
    if type(of: inner) == ValueSequenceObservable.self {
      submitAll(unsafeDowncast(inner, to: ValueSequenceObservable.self), id: id)
      return true
    }
    return false
  }
}

// rx:hand-leaf: switches to the inner observable where it lies (unretained), not the generic body.
final class ValueSwitchLatestSink: SwitchSink<Observable<Value>, Value> {
  override func select(at element: UnsafePointer<Observable<Value>>) throws -> Selected { .observable(element.pointee) }
  override func on(_ event: Event<Observable<Value>>) { super.on(event) }
  override var takesNextByPointer: Bool { true }
  /// The observable is switched to where it lies, not retained: a caller's element stays
  /// the caller's.
  override func onNext(at element: UnsafePointer<Observable<Value>>) {
    if wantsNoMoreEvents { return }
    nextId &+= 1
    let id = nextId
    @inline(__always) func switchToInner(_ inner: Observable<Value>) { _ = switchTo(observable: inner, id: id) }  // (a closure stayed a call)
    UnsafeRawPointer(element).load(as: Unmanaged<Observable<Value>>.self)._withUnsafeGuaranteedRef(switchToInner)
  }
  override func makeInner(id: UInt64) -> SwitchInner<Observable<Value>, Value> { ValueSwitchLatestInner(parent: self, tag: id) }
  override func runFused(_ inner: Observable<Value>, id: UInt64) -> Bool { runFusedValue(inner, id: id) }
}
