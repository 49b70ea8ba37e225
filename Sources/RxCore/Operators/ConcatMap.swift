import Synchronization

extension Observable {
  /// Maps each element to an observable and concatenates them: the next inner observable is
  /// subscribed only after the previous one completed. The selector runs as elements arrive.
  // rx:value-overload
  public func concatMap<Result>(_ selector: @escaping (Element) throws -> Observable<Result>) -> Observable<Result> {
    SelectingProducer<Element, Result, ConcatMapSink<Element, Result>>(source: self, InnerSelector(select: selector))
  }
}

/// What goes through a ConcatMapSink's drain.
enum ConcatMapSignal<Result>: SelectingSignal {
  case fail(any Error)
  case outerCompleted
  case enqueue(Observable<Result>)
  case inner(Event<Result>)
}

/// Events are serialized through one Drain (see FlatMapSink). The drain only decides which
/// inner observable comes next (`pending`); subscribing it happens after the drain is left,
/// through a second Drain used as a trampoline. So an inner observable that emits while being
/// subscribed is delivered at once (not queued), and a long run of inner observables that
/// complete synchronously is handled in a loop, not by recursion.
///
/// A synchronous inner (a bare element from `select`, or a `just` or `of` the leaf knows)
/// that arrives with no inner active is delivered at once, in one pass through the drain,
/// with nothing left pending.
class ConcatMapSink<Source, Result>: SelectingSink<Source, Result, ConcatMapSignal<Result>> {
  typealias Signal = ConcatMapSignal<Result>

  let trampoline = Drain<Void>()
  let pending = Mutex<Observable<Result>?>(nil)
  let hasPending = Atomic<Bool>(false)  // lets the common event path skip the trampoline
  // Drain-owned state.
  var waiting = RingBuffer<Observable<Result>>()
  var innerActive = false
  var sourceDone = false

  /// A `just` of a bare element that must wait its turn (a hook for the Value leaves).
  func makeJust(_ element: Result) -> Observable<Result> { Just(element) }

  override func selected(_ selected: consuming Selected) {
    switch consume selected {  // moved out: a just left solely owned is recycled
    case .element(let value): arrive(CollectionOfOne(value).makeIterator(), else: makeJust(value))
    case .observable(let inner):
      if runFused(inner, arriving: true) { return ValueJust.recycle(consume inner) }
      submit(.enqueue(inner))
    }
  }

  override func submitSignal(_ signal: Signal) { submit(signal) }

  /// The observer of one inner subscription (a hook for the Value leaves).
  func makeInner() -> ConcatMapInner<Source, Result> { ConcatMapInner(parent: self) }

  /// Every submitter, drainer or not, subscribes what the drain left pending once it is out.
  final func submit(_ signal: Signal) {
    drain.submit(signal) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item) } }
    subscribePendingIfAny()
  }

  /// An inner event. An element is forwarded inline when the drain is free (where it is, not
  /// copied into a signal).
  final func submitInner(_ event: Event<Result>) {
    guard case .next = event else { return submit(.inner(event)) }
    @inline(__always) func runInline() { if !isDisposed { forwardOn(event) } }
    drain.submit(.inner(event), inline: runInline) { [me = Unmanaged.passUnretained(self)] item in
      me._withUnsafeGuaranteedRef { $0.handle(item) }
    }
    subscribePendingIfAny()
  }

  /// `submitInner(.next)` of the element at `element` (an inner that takes `.next` by
  /// pointer): forwarded where it is when the drain is free.
  final func submitInnerNext(at element: UnsafePointer<Result>) {
    @inline(__always) func runInline() { forwardNext(at: element) }
    drain.submit(.inner(.next(element.pointee)), inline: runInline) { [me = Unmanaged.passUnretained(self)] item in
      me._withUnsafeGuaranteedRef { $0.handle(item) }
    }
    subscribePendingIfAny()
  }

  @inline(__always) private func subscribePendingIfAny() {
    if hasPending.load(ordering: .acquiring) {
      trampoline.submit(()) { _ in self.subscribePending() }
    }
  }

  private func subscribePending() {
    guard let next = pending.withLock({ p -> Observable<Result>? in
      let next = p
      p = nil
      hasPending.store(false, ordering: .releasing)
      return next
    }) else { return }
    if wantsNoMoreEvents { return }
    if runFused(next, arriving: false) { return ValueJust.recycle(consume next) }
    let observer = makeInner()
    innerSubscription.set(observer)
    observer.attach(next.subscribe(observer))
  }

  /// An inner observable whose events this sink can produce itself, with no inner
  /// subscription (fusion; a hook for the Value leaves, which know the synchronous sources):
  /// true if it did. `arriving`: it comes from `on` (`arrive`), not from the queue (`submitAll`).
  func runFused(_ inner: Observable<Result>, arriving: Bool) -> Bool { false }

  /// A synchronous inner's events, as its subscription would have delivered them: each
  /// element while this sink wants more, then its completion.
  final func submitAll<S: SynchronousSource>(_ inner: S) where S.Element == Result {
    var elements = inner.pull()
    while !wantsNoMoreEvents, let element = elements.next() { submitInner(.next(element)) }
    submit(.inner(.completed))
  }

  /// An inner whose elements are at hand, as it arrives: delivered now if no inner is active
  /// (the drain taken once for all of them and the completion), else queued as `inner`.
  final func arrive<I: IteratorProtocol>(_ elements: consuming I, else inner: @autoclosure () -> Observable<Result>)
  where I.Element == Result {
    let me = Unmanaged.passUnretained(self)
    let queued: (Signal) -> Void = { item in me._withUnsafeGuaranteedRef { $0.handle(item) } }
    if drain.enter(queued) {
      if innerActive {
        handle(.enqueue(inner()))
      } else if !isDisposed {
        // Its completion leaves nothing to do: no inner was active (its slot is empty), and
        // the source, which is still emitting, is not done.
        var elements = elements
        while !wantsNoMoreEvents, let element = elements.next() { forwardNext(element) }
      }
      drain.exit(queued)
    } else {
      drain.submitQueued(.enqueue(inner()), queued)
    }
    subscribePendingIfAny()
  }

  private func setPending(_ next: Observable<Result>) {
    pending.withLock { p in
      p = next
      hasPending.store(true, ordering: .releasing)
    }
  }

  @inline(__always) private func handle(_ signal: Signal) {
    if isDisposed { return }
    switch signal {
    case .enqueue(let inner):
      if innerActive {
        waiting.append(inner)
      } else {
        innerActive = true
        setPending(inner)
      }
    case .fail(let error), .inner(.error(let error)):
      forwardTerminal(.error(error))
    case .outerCompleted:
      sourceDone = true
      sourceSubscription.dispose()
      if !innerActive { forwardTerminal(.completed) }
    case .inner(.next(let element)):
      forwardNext(element)
    case .inner(.completed):
      if let next = waiting.popFirst() {
        setPending(next)
      } else {
        innerActive = false
        innerSubscription.set(nil)
        if sourceDone { forwardTerminal(.completed) }
      }
    }
  }
}

// rx:value-leaf on next={parent.submitInnerNext(at: element)} super=wantsNoMoreEvents
// rx:value-leaf name=ValueConcatInner args=Observable<Value>,Value on next={parent.submitInnerNext(at: element)} super=wantsNoMoreEvents
/// The observer of one inner subscription, and its disposable.
class ConcatMapInner<Source, Result>: SubscribedObserver<Result, ConcatMapSink<Source, Result>, Void> {
  override func on(_ event: Event<Result>) { parent.submitInner(event) }
  override var wantsNoMoreEvents: Bool { parent.wantsNoMoreEvents }
}

// rx:hand-leaf: calls its FlatMapSelection selector (`selecting`) and fuses Value inners.
final class ValueConcatMapSink: ConcatMapSink<Value, Value> {
  override func select(at element: UnsafePointer<Value>) throws -> Selected { try selecting(element) }
  override func makeJust(_ element: Value) -> Observable<Value> { ValueJust(element) }
  override func on(_ event: Event<Value>) { super.on(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { next(at: element) }
  override func makeInner() -> ConcatMapInner<Value, Value> { ValueConcatMapInner(parent: self) }
  override func runFused(_ inner: Observable<Value>, arriving: Bool) -> Bool { runFusedValue(inner, arriving: arriving) }
}

// Fusion for the Value leaves (concat_map's and concat's).
extension ConcatMapSink where Result == Value {
  /// A `just` or `of` inner, delivered without a subscription. (The same recognition as
  /// FlatMapSink's `runFusedValue`, spelled out: a shared iterator over either kind cost
  /// concat_map 90-140 instructions per element.)
  final func runFusedValue(_ inner: Observable<Value>, arriving: Bool) -> Bool {
    if type(of: inner) == ValueJust.self || type(of: inner) == Just<Value>.self {
      let just = unsafeDowncast(inner, to: Just<Value>.self)
      if arriving { arrive(just.pull(), else: inner) } else { submitAll(just) }
      return true
    }
    if type(of: inner) == ValueSequenceObservable.self {
      let of = unsafeDowncast(inner, to: ValueSequenceObservable.self)
      if arriving { arrive(of.pull(), else: inner) } else { submitAll(of) }
      return true
    }
    return false
  }
}
