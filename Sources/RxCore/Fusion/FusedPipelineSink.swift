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
