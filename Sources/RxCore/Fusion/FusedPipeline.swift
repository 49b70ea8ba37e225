/// A fused chain of per-element stages (map, filter) over one root: consecutive stages
/// collapse into one pipeline, so map(f) -> filter(p) -> map(g) is one subscription to the
/// first source with one sink that runs f, p and g in a row (no sink, vtable call or
/// `wantsNoMoreEvents` level per stage). Each stage is still an observable of its own:
/// subscribed, it runs the stages up to itself.
///
/// The root is fused too:
/// - a scalar (`just`, or the C layer's rx_just value) is run without any sink or disposer
///   (`subscribe`, `runScalar`);
/// - a `SynchronousSource` the pipeline knows (`ValueRange`, `of`) is run as a loop inside
///   the pipeline's sink, with no sink of its own (`FusedPipelineSink.run(_:)`);
/// - any other observable is subscribed by the pipeline's sink.
///
/// Generic over its stage type, so a leaf class must fix it (docs/SPECIALIZATION.md): the
/// leaf overrides `subscribe` and `run` (with `start` and a sink of its own), and its sink overrides
/// `on`; the generic bodies then inline specialized. `ValuePipeline` is Swift's (closure
/// stages); the C layer has its own with C function stages.
///
/// Fields are set by `init`/`fuse`/`setRoot` and emptied by `empty`, so that a caller may
/// keep an emptied pipeline and refill it (the C layer's spare pipelines).
@_spi(RxC) open class FusedPipeline<Stage: FusedStage>: Producer<Value> {
  /// The root when it is an observable (owned), else nil: then `scalar` is the root.
  public final var rootObservable: Unmanaged<Observable<Value>>?
  /// The root when it is a scalar; `.none` otherwise.
  public final var scalar: Value = .none
  /// The pipeline this one extends (owned): keeps the earlier stages' resources alive.
  @usableFromInline final var previous: Unmanaged<FusedPipeline<Stage>>?
  /// Every stage, in order, `step` last, once this extends another pipeline: a plain buffer
  /// (an array would be retained and released per element), which the stage loop walks.
  /// Empty, so no allocation, for a single stage (`step` alone).
  public final var stages: UnsafeMutableBufferPointer<Stage>
  public final var step: Stage
  /// What `step` needs kept alive (owned), if anything.
  public final var owner: Unmanaged<AnyObject>?

  public init(_ step: Stage) {
    stages = UnsafeMutableBufferPointer(start: nil, count: 0)
    self.step = step
  }

  deinit {
    rootObservable?.release()
    previous?.release()
    owner?.release()
    _ = stages.deinitialize()
    stages.deallocate()
  }

  /// Sets the root (all empty before): `source`'s own root and stages if it is a pipeline of
  /// this same class, its element if it is a `just`, else `source` itself.
  @inlinable public final func setRoot(_ source: Observable<Value>) {
    if type(of: source) == type(of: self) {
      fuse(with: Unmanaged.passUnretained(unsafeDowncast(source, to: FusedPipeline<Stage>.self)))
    } else if type(of: source) == ValueJust.self || type(of: source) == Just<Value>.self {
      scalar = unsafeDowncast(source, to: Just<Value>.self).element
    } else {
      rootObservable = Unmanaged.passRetained(source)
    }
  }

  /// Extends pipeline `pu`: its root, and its stages then `step` as this one's stages
  /// (`step` is set before).
  @inlinable @inline(never)
  public final func fuse(with pu: Unmanaged<FusedPipeline<Stage>>) {
    let p = pu._withUnsafeGuaranteedRef { $0 }
    if let o = p.rootObservable { rootObservable = o.retain() } else { scalar = p.scalar }
    previous = pu.retain()
    let before = max(p.stages.count, 1)
    stages = UnsafeMutableBufferPointer<Stage>.allocate(capacity: before + 1)
    if p.stages.isEmpty {
      stages.baseAddress!.initialize(to: p.step)
    } else {
      _ = stages.initialize(from: p.stages)
    }
    stages[before - 1] = stages[before - 1].followed()
    (stages.baseAddress! + before).initialize(to: step)
  }

  /// Back to the state of a new pipeline with no root, no stage buffer and no owner (each
  /// released if there); `step` stays until it is overwritten.
  @inlinable @inline(__always)
  public final func empty() {
    if let o = rootObservable {
      rootObservable = nil
      o.release()
    } else if case .boxed = scalar {
      scalar = .none
    } else {
      withUnsafeMutablePointer(to: &scalar) { $0.initialize(to: .none) }  // nothing to destroy
    }
    if previous != nil || owner != nil || stages.baseAddress != nil { emptyTheRest() }
  }

  @inlinable @inline(never)
  public final func emptyTheRest() {
    previous?.release()
    previous = nil
    owner?.release()
    owner = nil
    _ = stages.deinitialize()
    stages.deallocate()
    stages = UnsafeMutableBufferPointer(start: nil, count: 0)
  }

  open override func subscribe(_ observer: Observer<Value>) -> any Disposable { subscribeFused(observer) }

  /// `subscribe`'s body, for a leaf in another module (see `FusedPipelineSink.handle`; so is
  /// `Producer.subscribe`'s, spelled out: `super.subscribe` would reach its generic body).
  @inlinable @inline(__always) public final func subscribeFused(_ observer: Observer<Value>) -> any Disposable {
    guard rootObservable == nil else { return SinkDisposer.subscribe { run(observer, cancel: $0) } }
    emitScalar(observer)
    return NopDisposable.shared
  }

  /// The scalar root through the stages and on to `observer` directly, with no sink or
  /// disposer: the events a sink would forward (next and completed, completed alone if
  /// filtered out, or the error), and nothing to dispose afterwards.
  @inlinable final func emitScalar(_ observer: Observer<Value>) {
    let input = scalar
    let out: FusedOutcome<Stage.Working>
    do { out = try process(Stage.working(input), nil, stages) } catch {
      observer.on(.error(error))
      return
    }
    switch consume out {  // consumed: a boxed output is moved on, not copied
    case .dropped: break
    case .plain(let w): Stage.deliverPlain(w) { observer.deliverNext($0) }
    case .output(let v): observer.deliverNext(v)
    case .input: observer.deliverNext(input)
    }
    observer.on(.completed)
  }

  /// The scalar root through every stage: `next` gets the outcome in working form (valid for
  /// the call) unless it was dropped. For a caller that ends the subscription itself.
  @inlinable @inline(__always)
  public final func runScalar(_ next: (Stage.Working) -> Void) throws {
    let input = Stage.working(scalar)  // borrowed: this pipeline holds the scalar's box
    switch try process(input, nil, stages) {
    case .dropped: break
    case .plain(let w): next(w)
    case .output(let out): withExtendedLifetime(out) { next(Stage.working(out)) }
    case .input: next(input)
    }
  }

  /// Unspecialized (a generic class's vtable entry): each leaf overrides it, calling `start`
  /// with its own sink.
  open override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    start(FusedPipelineSink(self, stages: stages, observer: observer, cancel: cancel))
  }

  /// Subscribes `sink` to the root, or runs a synchronous root's loop in it.
  /// The root is borrowed under this pipeline's reference and `sink` moved into the result:
  /// no retain/release pair for either.
  @inlinable public final func start(_ sink: consuming FusedPipelineSink<Stage>)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    guard let root = rootObservable else { preconditionFailure("a scalar root needs no sink") }
    // The sink reached unretained inside: read from the closure's capture, it was retained and
    // released around the subscribe (two locked instructions per subscription).
    // (Local inline funcs: closure literals here stayed calls of their own.)
    let borrowed = Unmanaged.passUnretained(sink)
    @inline(__always) func subscribe(_ source: Observable<Value>) -> any Disposable {
      @inline(__always) func into(_ sink: FusedPipelineSink<Stage>) -> any Disposable {
        if type(of: source) == ValueRange.self {
          sink.run(unsafeDowncast(source, to: ValueRange.self))
          return NopDisposable.shared
        }
        if type(of: source) == ValueSequenceObservable.self {
          sink.run(unsafeDowncast(source, to: ValueSequenceObservable.self))
          return NopDisposable.shared
        }
        return source.subscribe(sink)
      }
      return borrowed._withUnsafeGuaranteedRef(into)
    }
    let subscription = root._withUnsafeGuaranteedRef(subscribe)
    return (consume sink, subscription)
  }

  /// `input` through every stage up to this one, in one loop (`FusedStage.run`). With a
  /// sink, no step runs once it is disposed: the caller checks before the first step (a
  /// racing upstream event must not reach a user function), the loop after each step (a
  /// callback that disposed).
  ///
  /// `buffer` is the stages to run: this pipeline's `stages`, or a sink's copy of them when
  /// some keep state per subscription (`FusedPipelineSink.runStages`; the C layer's scan,
  /// take and skip stages); empty for `step` alone. (Not an optional chosen here: that
  /// cost 20 instructions per element on range -> map -> filter -> map.)
  @inlinable @inline(__always)
  public final func process(
    _ input: Stage.Working, _ sink: Sink<Value, Value>?, _ buffer: UnsafeMutableBufferPointer<Stage>
  ) throws -> FusedOutcome<Stage.Working> {
    var w = input
    var held: Value? = nil
    let unretained = sink.map { Unmanaged.passUnretained($0) }  // captured: no retain per element
    let stopped = { unretained?._withUnsafeGuaranteedRef { $0.isDisposed } ?? false }
    if let first = UnsafePointer(buffer.baseAddress) {
      guard try Stage.run(first, first + buffer.count, &w, &held, stopped) else { return .dropped }
    } else {
      guard try Stage.run(one: step, &w, &held) else { return .dropped }
    }
    // Consumed: a boxed output is moved on, not copied, and nothing is destroyed when no
    // step made a box. A plain result first: `held` may keep a box an earlier step made.
    switch consume held {
    case .some(let out): return Stage.isPlain(w) ? .plain(w) : .output(out)
    case .none: return Stage.isPlain(w) ? .plain(w) : .input
    }
  }
}

// rx:value-leaf name=ValuePipelineSink args=ValueStage on=handle next={handleNext(at: element)}
/// One subscription to a `FusedPipeline`: every element through all of its stages, in one
/// call. A leaf overrides `on` with `super.on` (see `FusedPipeline`).
@_spi(RxC) open class FusedPipelineSink<Stage: FusedStage>: Sink<Value, Value> {
  public let pipeline: FusedPipeline<Stage>
  /// The stages this subscription runs: the pipeline's, or when some keep state per
  /// subscription a copy of its own, which a leaf makes and frees.
  public final var runStages: UnsafeMutableBufferPointer<Stage>
  /// Set by a stage that ends the subscription once the element it let through is handled (a
  /// take that reached its count): the sink then completes.
  public final var endsAfterElement: UnsafeMutablePointer<Bool>? = nil

  /// `stages`: the pipeline's (the caller reads them: read here, it cost a retain of it).
  public init(
    _ pipeline: FusedPipeline<Stage>, stages: UnsafeMutableBufferPointer<Stage>, observer: Observer<Value>,
    cancel: any Cancelable
  ) {
    runStages = stages
    self.pipeline = pipeline
    super.init(observer: observer, cancel: cancel)
  }

  /// After an element: completes if a stage said this was the last one (a leaf with a take
  /// stage calls it after `handleNext`; the stateless leaves do not pay for the check).
  @inlinable @inline(__always) public final func endIfLast() {
    if let e = endsAfterElement, e.pointee { forwardTerminal(.completed) }
  }

  open override func on(_ event: Event<Value>) { handle(event) }

  /// `on`'s body. A leaf in another module calls this rather than `super.on`: a super call
  /// across modules goes through the generic class's vtable, to its unspecialized body.
  @inlinable @inline(__always) public final func handle(_ event: Event<Value>) {
    switch event {
    case .next(let v): handleNext(v)
    case _ where isDisposed: return
    case .error, .completed: forwardTerminal(event)
    }
  }

  /// `handleNext` of the element at `element`: what a leaf's `onNext(at:)` runs (no copy of
  /// the element where the stages read it in place, `FusedStage.working(at:)`).
  @inlinable @inline(__always) public final func handleNext(at element: UnsafePointer<Value>) {
    if isDisposed { return }
    let out: FusedOutcome<Stage.Working>
    do { out = try pipeline.process(Stage.working(at: element), self, runStages) } catch {
      forwardTerminal(.error(error))
      return
    }
    switch consume out {  // consumed: a boxed output is moved on, not copied
    case .plain(let w): forwardPlain(w)
    case .output(let value): forwardNext(value)
    case .input: forwardNext(at: element)
    case .dropped: break
    }
  }

  /// A `.next` event's body (no `Event` built).
  @inlinable @inline(__always) public final func handleNext(_ v: Value) {
    if isDisposed { return }
    let out: FusedOutcome<Stage.Working>
    do { out = try pipeline.process(Stage.working(v), self, runStages) } catch {
      forwardTerminal(.error(error))
      return
    }
    switch consume out {  // consumed: a boxed output is moved on, not copied
    case .plain(let w): forwardPlain(w)
    case .output(let value): forwardNext(value)
    case .input: forwardNext(v)
    case .dropped: break
    }
  }

  /// A synchronous root fused in: its elements go straight into the stages, with no source
  /// sink, event or subscription per element. The same events and checks as the source's own
  /// loop: it stops once this sink is disposed or nobody downstream wants more.
  ///
  /// `wantsNoMoreEvents` is asked before the first element and after a delivery that may
  /// have stopped someone (`SynchronousStop`); a dispose of this sink `isDisposed` sees.
  @inlinable public final func run<Source: SynchronousSource>(_ source: Source) where Source.Element == Value {
    // Two copies of the loop: a pipeline without a take stage checks no end flag.
    if let ends = endsAfterElement { runLoop(source, ends) } else { runLoop(source, nil) }
  }

  @inlinable @inline(__always)
  final func runLoop<Source: SynchronousSource>(_ source: Source, _ ends: UnsafeMutablePointer<Bool>?)
  where Source.Element == Value {
    let downstream = observer  // a local: through `self` it is retained around every call
    if downstream.wantsNoMoreEvents { return on(.completed) }
    var elements = source.pull()
    var stop = SynchronousStop()
    _ = stop.mayHaveStopped()  // asked just above
    while !isDisposed, let v = elements.next() {
      let out: FusedOutcome<Stage.Working>
      do { out = try pipeline.process(Stage.working(v), self, runStages) } catch {
        return forwardTerminal(.error(error))
      }
      var delivers = true
      switch consume out {
      case .plain(let w): forwardPlain(w)
      case .output(let value): forwardNext(value)
      case .input: forwardNext(v)
      case .dropped: delivers = false
      }
      if let ends, ends.pointee { break }
      if delivers && stop.mayHaveStopped() && downstream.wantsNoMoreEvents { break }
    }
    on(.completed)
  }

  /// A value with no box on (see `FusedStage.deliverPlain`).
  @inlinable @inline(__always)
  public final func forwardPlain(_ w: Stage.Working) {
    // A C value to a C subscriber goes as it is: no `Value` made here and read back there.
    // (Reached unretained: the sink holds its observer.)
    let end = Unmanaged.passUnretained(observer).toOpaque()
    if let c = Stage.cValue(w), ObserverEnd.isToken(UnsafeRawPointer(end)) {
      if isDisposed { return }
      return Unmanaged<ObserverEnd>.fromOpaque(end)._withUnsafeGuaranteedRef { $0.onNextC(c) }
    }
    Stage.deliverPlain(w) { forwardPlainCase($0) }
  }

  /// Inlined per case, so the compiler sees a value with nothing to destroy.
  @inlinable @inline(__always)
  final func forwardPlainCase(_ value: consuming Value) {
    if !forwardsByPointer { return forwardOn(.next(value)) }
    if isDisposed { return }
    _withUnprotectedUnsafePointer(to: value) { observer.onNext(at: $0) }
  }
}
