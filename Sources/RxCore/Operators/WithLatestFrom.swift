extension Observable {
  /// Combines each element with the latest element of `other` (elements arriving before
  /// `other` emitted are dropped). Completes with the source; an error of either fails it.
  public func withLatestFrom<Other, Result>(
    _ other: Observable<Other>, resultSelector: @escaping (Element, Other) throws -> Result
  ) -> Observable<Result> {
    WithLatestFromProducer(source: self, LatestFrom(other: other, selector: ClosureLatestSelector(resultSelector)))
  }

  /// `withLatestFrom` with a selector object, called with the element and the latest
  /// element of `other`, in that order, as a buffer of two (combine_latest's form).
  @_spi(RxC) public func withLatestFrom<Result>(
    _ other: Observable<Element>, combining: CombiningFunction<Element, Result>
  ) -> Observable<Result> {
    WithLatestFromProducer(source: self, LatestFrom(other: other, selector: CombiningLatestSelector(combining)))
  }
}

extension Observable where Element == Value {
  public func withLatestFrom(
    _ other: Observable<Value>, resultSelector: @escaping (Value, Value) throws -> Value
  ) -> Observable<Value> {
    ValueWithLatestFromProducer(source: self, LatestFrom(other: other, selector: ValueClosureLatestSelector(resultSelector)))
  }

  @_spi(RxC) public func withLatestFrom(_ other: Observable<Value>, combining: CombiningFunction<Value, Value>)
    -> Observable<Value>
  {
    ValueWithLatestFromProducer(source: self, LatestFrom(other: other, selector: ValueCombiningLatestSelector(combining)))
  }
}

/// What `withLatestFrom` combines its source with: the other source and the selector.
struct LatestFrom<Source, Other, Result> {
  let other: Observable<Other>
  let selector: LatestSelector<Source, Other, Result>
}

// rx:value-leaf copy=makeSink super=run
class WithLatestFromProducer<Source, Other, Result>: UnaryProducer<Source, Result, LatestFrom<Source, Other, Result>> {
  override func makeSink(_ observer: Observer<Result>, cancel: any Cancelable) -> Sink<Source, Result> {
    WithLatestFromSink(parent: self, observer: observer, cancel: cancel)
  }
}

// rx:value-leaf copy=makeOther on next={onSourceNext(at: element)}
/// Source and other events are serialized through one Drain.
class WithLatestFromSink<Source, Other, Result>: Sink<Source, Result> {
  enum Signal {
    case source(Event<Source>)
    case other(Event<Other>)
  }

  let parent: WithLatestFromProducer<Source, Other, Result>
  /// The parent's, held here: reached through the parent it would be retained and released
  /// around every call.
  let selector: LatestSelector<Source, Other, Result>
  let drain = Drain<Signal>()
  let sourceSubscription = SingleAssignmentDisposable()
  let otherSubscription = SingleAssignmentDisposable()
  /// The selector object when the selector is one (`LatestSelector.combining`): called here
  /// directly over `pair`, one virtual call per element rather than two. Unretained (the
  /// selector holds it): a strong optional is retained and released around every call.
  let combining: Unmanaged<CombiningFunction<Source, Result>>?
  /// Two slots: the element's bits go in the first for a call of `combining` (a view, never
  /// retained or destroyed); the second is `latest`.
  let pair: UnsafeMutablePointer<Other>
  /// The latest element of `other`, in a slot of its own so the selector reads it in place
  /// (drain-owned; initialized once `hasLatest`).
  let latest: UnsafeMutablePointer<Other>
  var hasLatest = false
  /// `combining`'s argument buffer for the pair (nil when it keeps none), and whether
  /// `latest` changed since `combining` last saw it (drain-owned).
  let arguments: UnsafeMutableRawPointer?
  var latestChanged = true

  init(parent: WithLatestFromProducer<Source, Other, Result>, observer: Observer<Result>, cancel: any Cancelable) {
    self.parent = parent
    selector = parent.parameter.selector
    let function = selector.combining
    combining = function.map { .passUnretained($0) }
    pair = .allocate(capacity: 2)
    latest = pair + 1
    let size = 2 * (function?.argumentStride ?? 0)
    arguments = size > 0 ? .allocate(byteCount: size, alignment: 16) : nil
    super.init(observer: observer, cancel: cancel)
  }

  deinit {
    if hasLatest { Slot.destroy(latest) }
    pair.deallocate()
    arguments?.deallocate()
  }

  /// Subscribes to the other source first, so that its latest element is there for the source's.
  final override func subscribe(to source: Observable<Source>) -> any Disposable {
    otherSubscription.trySet(parent.parameter.other.subscribe(makeOther()))
    if !wantsNoMoreEvents { sourceSubscription.trySet(source.subscribe(self)) }
    return BinaryDisposable(sourceSubscription, otherSubscription)
  }

  /// The observer of `other` (a hook for the Value leaf).
  func makeOther() -> Observer<Other> { WithLatestFromOther(parent: self) }

  // Inline when the drain is free: the event is handled where it is, not copied into a signal.
  override func on(_ event: Event<Source>) {
    @inline(__always) func runInline() { handleSource(event) }
    drain.submit(.source(event), inline: runInline) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item) } }
  }

  final func submitOther(_ event: Event<Other>) {
    @inline(__always) func runInline() { handleOther(event) }
    drain.submit(.other(event), inline: runInline) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item) } }
  }

  /// An element of the other source by pointer: copied once, into `latest` (an event is built
  /// only if the drain is held).
  final func submitOtherNext(at element: UnsafePointer<Other>) {
    guard enterDrain(else: .other(.next(element.pointee))) else { return }
    if !isDisposed { keepLatest(at: element) }
    exitDrain()
  }

  /// The drain's `submit` spelled out for an element by pointer, which the caller handles
  /// where it is between `enterDrain` (true: the drain is held) and `exitDrain`; else
  /// `signal` is queued. (`submit`'s `inline` closure, with the element's work inlined,
  /// stayed a call of its own, and so did a closure passed here. Closure literals at each
  /// call: a closure in a `let` is allocated per call.)
  @inline(__always)
  private func enterDrain(else signal: @autoclosure () -> Signal) -> Bool {
    let me = Unmanaged.passUnretained(self)
    if drain.enter({ item in me._withUnsafeGuaranteedRef { $0.handle(item) } }) { return true }
    drain.submitQueued(signal()) { item in me._withUnsafeGuaranteedRef { $0.handle(item) } }
    return false
  }

  @inline(__always)
  private func exitDrain() {
    let me = Unmanaged.passUnretained(self)
    drain.exit { item in me._withUnsafeGuaranteedRef { $0.handle(item) } }
  }

  @inline(__always)
  private func keepLatest(at element: UnsafePointer<Other>) {
    if hasLatest {
      Slot.assign(latest, copying: element)
    } else {
      Slot.initialize(latest, copying: element)
      hasLatest = true
    }
    latestChanged = true
  }

  private func handle(_ signal: Signal) {
    switch signal {
    case .source(let event): handleSource(event)
    case .other(let event): handleOther(event)
    }
  }

  /// A source element by pointer: combined where it is when the drain is free.
  final func onSourceNext(at element: UnsafePointer<Source>) {
    guard enterDrain(else: .source(.next(element.pointee))) else { return }
    if !isDisposed { next(at: element) }
    exitDrain()
  }

  /// A source element (drain-owned): combined with the latest of the other, if any.
  @inline(__always)
  private func next(at element: UnsafePointer<Source>) {
    if !hasLatest { return }
    // Made in place and handed over by pointer: no copy of the result.
    _withUnprotectedUnsafeTemporaryAllocation(of: Result.self, capacity: 1) { slot in
      // (Unprotected: no stack-protector check per element for this slot.)
      let result = slot.baseAddress.unsafelyUnwrapped
      do {
        if let combining {
          // Source is Other here (`LatestSelector.combining`). The element is new every
          // time; the latest only when `other` emitted since.
          UnsafeMutableRawPointer(pair).copyMemory(from: element, byteCount: MemoryLayout<Source>.size)
          try combining._withUnsafeGuaranteedRef {
            try $0.apply(
              UnsafeRawPointer(pair).assumingMemoryBound(to: Source.self), count: 2, arguments: arguments,
              changed: latestChanged ? -1 : 0, into: result)
          }
        } else {
          try selector.select(element, latest, into: result)
        }
      } catch {
        return forwardTerminal(.error(error))
      }
      latestChanged = false
      forwardNext(at: result)
      Slot.destroy(result)
    }
  }

  private func handleSource(_ event: Event<Source>) {
    if isDisposed { return }
    switch event {
    case .next(let element):
      _withUnprotectedUnsafePointer(to: element) { next(at: $0) }
    case .error(let error):
      forwardTerminal(.error(error))
    case .completed:
      forwardTerminal(.completed)
    }
  }

  private func handleOther(_ event: Event<Other>) {
    if isDisposed { return }
    switch event {
    case .error(let error):
      forwardTerminal(.error(error))
    case .next(let element):
      _withUnprotectedUnsafePointer(to: element) { keepLatest(at: $0) }
    case .completed:
      otherSubscription.dispose()
    }
  }
}

// rx:value-leaf on next={parent.submitOtherNext(at: element)} super=wantsNoMoreEvents
class WithLatestFromOther<Source, Other, Result>: Observer<Other> {
  let parent: WithLatestFromSink<Source, Other, Result>
  init(parent: WithLatestFromSink<Source, Other, Result>) { self.parent = parent }
  override func on(_ event: Event<Other>) { parent.submitOther(event) }
  override var wantsNoMoreEvents: Bool { parent.wantsNoMoreEvents }
}
