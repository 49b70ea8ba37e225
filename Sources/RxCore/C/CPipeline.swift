import CRxc

/// The observable of rx_map, rx_filter, rx_scan, and of rx_take and rx_skip over one of
/// these: the core's fused pipeline (`FusedPipeline`, which has all of the Rx behaviour) with
/// C function stages, as a leaf class for its specialized code: the C stages (`CStage`,
/// `CStatefulStage`), which stages join a chain (`extend`, `joining`), and this thread's
/// spare pipeline. The C layer only turns a handle into the root.
@_spi(RxC) public final class CPipeline: FusedPipeline<CStage> {
  /// Some stage keeps state per subscription (`CStage.isStateful`).
  public final var stateful = false

  /// A new pipeline of `stage`, or this thread's spare refilled (see `recycle`); its root is
  /// the caller's to set.
  @inlinable @inline(__always)
  public static func refilled(_ stage: CStage) -> CPipeline {
    guard let p = rxc_spare_take_pipeline() else { return CPipeline(stage) }
    let pipeline = Unmanaged<CPipeline>.fromOpaque(p).takeRetainedValue()
    pipeline.step = stage
    return pipeline
  }

  /// Lets go of a pipeline. One that nothing else holds is emptied (its value, contexts and
  /// earlier stages released now, as its deinit would) and kept as this thread's spare: a
  /// just -> map -> subscribe lifecycle then allocates no pipeline.
  @inlinable @inline(__always)
  public static func recycle(_ core: Unmanaged<CPipeline>) {
    var pipeline = core.takeRetainedValue()
    guard isKnownUniquelyReferenced(&pipeline), mayReuseUniqueObject() else { return }
    pipeline.emptyForReuse()
    let p = Unmanaged.passRetained(consume pipeline)
    if !rxc_spare_put_pipeline(p.toOpaque()) { p.release() }
  }

  /// Extends `source` (this pipeline's root is not set yet); a stage over a pipeline with a
  /// stateful stage runs from a sink's copy of the stages too.
  @inlinable @inline(__always)
  public func extend(_ source: Unmanaged<CPipeline>) {
    fuse(with: unsafeBitCast(source, to: Unmanaged<FusedPipeline<CStage>>.self))
    if _slowPath(source._withUnsafeGuaranteedRef { $0.stateful }) { becomeStateful() }
  }

  /// A scan, take or skip stage over `source`. A stage with state joins a fused chain and
  /// starts none (alone, the operator's own sink is cheaper): nil when `source` is no
  /// pipeline, or for a count of 0 (take(0) completes at once, skip(0) is the source itself),
  /// and the caller makes the operator instead (nothing taken: `ctxFree` is not called).
  /// `ctxFree` frees the scan's ctx once the pipeline and its subscriptions are gone.
  public static func joining(_ source: Unmanaged<CPipeline>?, _ kind: CStatefulStage.Kind, ctxFree: rx_free_fn?)
    -> CPipeline?
  {
    guard let source else { return nil }
    var owner: CContext? = nil
    switch kind {
    case .take(let n), .skip(let n): if n <= 0 { return nil }
    case .scan(_, let ctx, _): owner = ctxFree.map { CContext(ctx, $0) }
    }
    let template = CStatefulStage.Template(kind, owner)
    let pipeline = refilled(template.cStage)
    pipeline.owner = Unmanaged<AnyObject>.passRetained(template)
    pipeline.extend(source)
    pipeline.becomeStateful()
    return pipeline
  }

  /// Stateful stages run from a sink's copy, so a scalar root becomes a `just` to subscribe.
  public func becomeStateful() {
    stateful = true
    if rootObservable == nil {
      rootObservable = Unmanaged.passRetained(ValueJust(scalar))
      scalar = .none
    }
  }

  /// Emptied to be kept as a spare (see `FusedPipeline.empty`).
  @inlinable @inline(__always)
  public func emptyForReuse() {
    empty()
    stateful = false
  }

  public override func subscribe(_ observer: Observer<Value>) -> any Disposable { subscribeFused(observer) }

  @inline(__always)  // into `subscribe` (measured: 28 instructions per subscription otherwise)
  public override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    if _slowPath(stateful) { return runStateful(observer, cancel: cancel) }
    return start(CPipelineSink(self, stages: stages, observer: observer, cancel: cancel))
  }

  /// Out of line: a second inlined `start` kept `run` from being inlined into `subscribe`.
  @inline(never)
  private func runStateful(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    start(CStatefulPipelineSink(self, observer: observer, cancel: cancel))
  }
}

@_spi(RxC) public final class CPipelineSink: FusedPipelineSink<CStage> {
  public override func on(_ event: Event<Value>) { handle(event) }
  public override var takesNextByPointer: Bool { true }
  public override func onNext(at element: UnsafePointer<Value>) { handleNext(at: element) }
}

/// The sink of a pipeline with a scan, take or skip stage: it runs a copy of the stages of
/// its own (see `CStatefulStage`), and completes once a take stage has let its last through.
@_spi(RxC) public final class CStatefulPipelineSink: FusedPipelineSink<CStage> {
  public init(_ pipeline: CPipeline, observer: Observer<Value>, cancel: any Cancelable) {
    super.init(pipeline, stages: pipeline.stages, observer: observer, cancel: cancel)
    let (stages, ends) = CStatefulStage.copies(of: pipeline)
    (runStages, endsAfterElement) = (stages, ends)
  }

  deinit { CStatefulStage.release(runStages, endsAfterElement.unsafelyUnwrapped) }

  public override func on(_ event: Event<Value>) {
    guard case .next(let v) = event else { return handle(event) }
    handleNext(v)
    endIfLast()
  }

  public override var takesNextByPointer: Bool { true }
  public override func onNext(at element: UnsafePointer<Value>) {
    handleNext(at: element)
    endIfLast()
  }
}

/// One rx_map or rx_filter function as a fused stage: exactly one of the two, called with
/// `ctx`. Plain data (the pipelines own the contexts), so running the stages retains
/// nothing. Elements travel as their borrowed C view: a plain value needs no owner, so it
/// passes between C functions as it is.
@_spi(RxC) public struct CStage: FusedStage {
  public let map: rx_map_fn?
  public let filter: rx_predicate_fn?
  public let ctx: UnsafeMutableRawPointer?
  /// A later stage follows this one in the buffer (`run` stops after a stage without, so the
  /// loop keeps no end pointer: one register less across the calls).
  public var hasNext = false

  public init(map: rx_map_fn?, filter: rx_predicate_fn?, ctx: UnsafeMutableRawPointer?) {
    self.map = map
    self.filter = filter
    self.ctx = ctx
  }

  /// A scan, take or skip: a C function of this file's own over a state as its ctx (the
  /// pipeline's template, or in a sink's copy of the stages that subscription's own).
  public var isStateful: Bool { CStatefulStage.isStep(map: map, filter: filter) }

  public func followed() -> CStage {
    var s = self
    s.hasNext = true
    return s
  }

  @inlinable @inline(__always) public static func working(_ element: Value) -> rx_value { element.c }
  @inlinable @inline(__always) public static func working(at element: UnsafePointer<Value>) -> rx_value { element.pointee.c }

  /// A boxed map result is taken over (owned by `held`); a callback's error is thrown.
  @inlinable @inline(__always)
  public func apply(_ v: inout rx_value, _ held: inout Value?) throws -> Bool {
    var err: UnsafeMutablePointer<rx_error>? = nil
    guard let map else {
      let pass = filter.unsafelyUnwrapped(ctx, v, &err)
      try CallbackResult.check(err, "rx_filter")
      return pass
    }
    let r = map(ctx, v, &err)
    if err == nil && r.kind.rawValue < RX_STRING.rawValue {
      v = r
      if held != nil { held = nil }
      return true
    }
    let value = try CallbackResult.value(r, err, "rx_map")
    v = value.c
    held = value
    return true
  }

  /// The fused loop: one error slot for the whole chain (set only by a failing callback,
  /// which ends it), a plain map result taken as it is, and `held` touched only for a box.
  /// Per hop: the disposed check, the stage's kind, the call, the error and result-kind
  /// checks.
  @inlinable @inline(__always)
  public static func run(
    _ first: UnsafePointer<CStage>, _ end: UnsafePointer<CStage>, _ v: inout rx_value, _ held: inout Value?,
    _ stopped: () -> Bool
  ) throws -> Bool {
    var err: UnsafeMutablePointer<rx_error>? = nil
    var s = first
    while true {
      guard try s.pointee.step(&v, &held, &err) else { return false }
      if !s.pointee.hasNext { return true }
      if stopped() { return false }
      s += 1
    }
  }

  /// A pipeline of one stage: that step alone, no loop.
  @inlinable @inline(__always)
  public static func run(one stage: CStage, _ v: inout rx_value, _ held: inout Value?) throws -> Bool {
    var err: UnsafeMutablePointer<rx_error>? = nil
    return try stage.step(&v, &held, &err)
  }

  /// One hop of `run`: false if filtered out. `err` is nil before and after (else thrown).
  @inlinable @inline(__always)
  public func step(_ v: inout rx_value, _ held: inout Value?, _ err: inout UnsafeMutablePointer<rx_error>?) throws
    -> Bool
  {
    if let map {
      let r = map(ctx, v, &err)
      if _fastPath(err == nil && r.kind.rawValue < RX_STRING.rawValue) {
        v = r
      } else {
        v = try Self.takeMapResult(r, err, &held)
      }
      return true
    }
    let pass = filter.unsafelyUnwrapped(ctx, v, &err)
    if _slowPath(err != nil) { try CallbackResult.check(err, "rx_filter") }
    return pass
  }

  /// A map result that is a box (owned by `held` from now on; its view returned) or comes
  /// with an error (thrown). `v` stays in registers: it is not passed here.
  @inline(never)
  public static func takeMapResult(_ r: rx_value, _ err: UnsafeMutablePointer<rx_error>?, _ held: inout Value?) throws
    -> rx_value
  {
    let value = try CallbackResult.value(r, err, "rx_map")
    held = value
    return value.c
  }

  @inlinable @inline(__always) public static func isPlain(_ v: rx_value) -> Bool { v.kind.rawValue < RX_STRING.rawValue }

  @inlinable @inline(__always) public static func cValue(_ v: rx_value) -> rx_value? { v }

  @inlinable @inline(__always) public static func deliverPlain(_ v: rx_value, _ deliver: (consuming Value) -> Void) {
    switch v.kind {
    case RX_INT: deliver(.int(v.i))
    case RX_DOUBLE: deliver(.double(v.d))
    case RX_BOOL: deliver(.bool(v.b))
    case RX_PTR: deliver(.ptr(v.ptr))
    default: deliver(.none)
    }
  }
}
