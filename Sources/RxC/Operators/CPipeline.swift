import CRxc
@_spi(RxC) import RxCore

/// The observable of rx_map, rx_filter, rx_scan, and of rx_take and rx_skip over one of
/// these: the core's fused pipeline (`FusedPipeline`, which has all of the Rx behaviour) with
/// C function stages, as a leaf class for its specialized code. What is here is marshalling
/// (`CStage`, `CStatefulStage`) and handle memory: the pipeline's C context, the rx_just
/// value of a handle as its root, and this thread's spare pipeline.
final class CPipeline: FusedPipeline<CStage> {
  /// Some stage keeps state per subscription (`CStage.isStateful`).
  private(set) var stateful = false

  static func map(_ source: ObservableHandle, _ fn: rx_map_fn, _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?)
    -> CPipeline
  {
    make(source, CStage(map: fn, filter: nil, ctx: ctx), ctxFree)
  }

  static func filter(
    _ source: ObservableHandle, _ fn: rx_predicate_fn, _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?
  ) -> CPipeline {
    make(source, CStage(map: nil, filter: fn, ctx: ctx), ctxFree)
  }

  // Scan, take and skip join a fused chain and start none (alone, their own sinks are
  // cheaper): each factory returns nil unless `source` is a pipeline, and the caller then
  // makes the core's operator.

  /// rx_scan: the accumulator as a stage, `seed` (borrowed) copied.
  static func scan(
    _ source: ObservableHandle, seed: RxValue, _ fn: rx_accumulate_fn, _ ctx: UnsafeMutableRawPointer?,
    _ ctxFree: rx_free_fn?
  ) -> CPipeline? {
    guard source.sort == .pipeline else { return nil }
    let template = CStatefulStage.Template(.scan(fn, ctx, seed: seed), ctxFree.map { CContext(ctx, $0) })
    return makeStateful(source, template)
  }

  /// rx_take or rx_skip: a counting stage (n > 0; take(0) completes at once, skip(0) is the
  /// source itself: neither a stage).
  static func counting(_ source: ObservableHandle, take n: Int) -> CPipeline? {
    guard source.sort == .pipeline, n > 0 else { return nil }
    let template = CStatefulStage.Template(.take(n), nil)
    return makeStateful(source, template)
  }

  static func counting(_ source: ObservableHandle, skip n: Int) -> CPipeline? {
    guard source.sort == .pipeline, n > 0 else { return nil }
    let template = CStatefulStage.Template(.skip(n), nil)
    return makeStateful(source, template)
  }

  /// A new pipeline, or this thread's spare refilled (see `recycle`).
  @inline(__always)
  private static func make(_ source: ObservableHandle, _ stage: CStage, _ ctxFree: rx_free_fn?) -> CPipeline {
    let pipeline = refilled(stage)
    if let ctxFree { pipeline.owner = Unmanaged<AnyObject>.passRetained(CContext(stage.ctx, ctxFree)) }
    pipeline.setRoot(from: source)
    if _slowPath(source.isStatefulPipeline) { pipeline.becomeStateful() }
    return pipeline
  }

  /// `make` for a stage with state: the template is the pipeline's owner.
  private static func makeStateful(_ source: ObservableHandle, _ template: CStatefulStage.Template) -> CPipeline {
    let pipeline = refilled(template.cStage)
    pipeline.owner = Unmanaged<AnyObject>.passRetained(template)
    pipeline.setRoot(from: source)
    pipeline.becomeStateful()
    return pipeline
  }

  @inline(__always)
  private static func refilled(_ stage: CStage) -> CPipeline {
    guard let p = rxc_spare_take_pipeline() else { return CPipeline(stage) }
    let pipeline = Unmanaged<CPipeline>.fromOpaque(p).takeRetainedValue()
    pipeline.step = stage
    return pipeline
  }

  /// Stateful stages run from a sink's copy, so a scalar root becomes a `just` to subscribe.
  private func becomeStateful() {
    stateful = true
    if rootObservable == nil {
      rootObservable = Unmanaged.passRetained(ValueJust(scalar))
      scalar = .none
    }
  }

  /// The root from a handle: its rx_just value (copied without the generic enum copy), or its
  /// observable (see `FusedPipeline.setRoot`).
  @inline(__always)
  private func setRoot(from source: ObservableHandle) {
    guard let core = source.unretainedCore else {
      source.copyScalar(into: &scalar)  // rx_just (this holds `.none`)
      return
    }
    if source.sort == .pipeline {
      return fuse(with: unsafeBitCast(core, to: Unmanaged<FusedPipeline<CStage>>.self))
    }
    setRoot(core.takeUnretainedValue())
  }

  /// Releases a handle's pipeline. A pipeline that nothing else holds is emptied (its value,
  /// contexts and earlier stages released now, as its deinit would) and kept as this
  /// thread's spare: a just -> map -> subscribe lifecycle then allocates no pipeline.
  @inline(__always)
  static func recycle(_ core: Unmanaged<CPipeline>) {
    var pipeline = core.takeRetainedValue()
    guard isKnownUniquelyReferenced(&pipeline), mayReuseUniqueObject() else { return }
    pipeline.empty()
    pipeline.stateful = false
    let p = Unmanaged.passRetained(consume pipeline)
    if !rxc_spare_put_pipeline(p.toOpaque()) { p.release() }
  }

  override func subscribe(_ observer: Observer<RxValue>) -> any Disposable { subscribeFused(observer) }

  @inline(__always)  // into `subscribe` (measured: 28 instructions per subscription otherwise)
  override func run(_ observer: Observer<RxValue>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    if _slowPath(stateful) { return runStateful(observer, cancel: cancel) }
    return start(CPipelineSink(self, stages: stages, observer: observer, cancel: cancel))
  }

  /// Out of line: a second inlined `start` kept `run` from being inlined into `subscribe`.
  @inline(never)
  private func runStateful(_ observer: Observer<RxValue>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    start(CStatefulPipelineSink(self, observer: observer, cancel: cancel))
  }
}

final class CPipelineSink: FusedPipelineSink<CStage> {
  override func on(_ event: Event<RxValue>) { handle(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<RxValue>) { handleNext(at: element) }
}

/// The sink of a pipeline with a scan, take or skip stage: it runs a copy of the stages of
/// its own (see `CStatefulStage`), and completes once a take stage has let its last through.
final class CStatefulPipelineSink: FusedPipelineSink<CStage> {
  init(_ pipeline: CPipeline, observer: Observer<RxValue>, cancel: any Cancelable) {
    super.init(pipeline, stages: pipeline.stages, observer: observer, cancel: cancel)
    let (stages, ends) = CStatefulStage.copies(of: pipeline)
    (runStages, endsAfterElement) = (stages, ends)
  }

  deinit { CStatefulStage.release(runStages, endsAfterElement.unsafelyUnwrapped) }

  override func on(_ event: Event<RxValue>) {
    guard case .next(let v) = event else { return handle(event) }
    handleNext(v)
    endIfLast()
  }

  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<RxValue>) {
    handleNext(at: element)
    endIfLast()
  }
}

/// One rx_map or rx_filter function as a fused stage: exactly one of the two, called with
/// `ctx`. Plain data (the pipelines own the contexts), so running the stages retains
/// nothing. Elements travel as their borrowed C view: a plain value needs no owner, so it
/// passes between C functions as it is.
struct CStage: FusedStage {
  let map: rx_map_fn?
  let filter: rx_predicate_fn?
  let ctx: UnsafeMutableRawPointer?
  /// A later stage follows this one in the buffer (`run` stops after a stage without, so the
  /// loop keeps no end pointer: one register less across the calls).
  var hasNext = false

  init(map: rx_map_fn?, filter: rx_predicate_fn?, ctx: UnsafeMutableRawPointer?) {
    self.map = map
    self.filter = filter
    self.ctx = ctx
  }

  /// A scan, take or skip: a C function of this file's own over a state as its ctx (the
  /// pipeline's template, or in a sink's copy of the stages that subscription's own).
  var isStateful: Bool { CStatefulStage.isStep(map: map, filter: filter) }

  func followed() -> CStage {
    var s = self
    s.hasNext = true
    return s
  }

  @inline(__always) static func working(_ element: RxValue) -> rx_value { element.c }
  @inline(__always) static func working(at element: UnsafePointer<RxValue>) -> rx_value { element.pointee.c }

  /// A boxed map result is taken over (owned by `held`); a callback's error is thrown.
  @inline(__always)
  func apply(_ v: inout rx_value, _ held: inout RxValue?) throws -> Bool {
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
  @inline(__always)
  static func run(
    _ first: UnsafePointer<CStage>, _ end: UnsafePointer<CStage>, _ v: inout rx_value, _ held: inout RxValue?,
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
  @inline(__always)
  static func run(one stage: CStage, _ v: inout rx_value, _ held: inout RxValue?) throws -> Bool {
    var err: UnsafeMutablePointer<rx_error>? = nil
    return try stage.step(&v, &held, &err)
  }

  /// One hop of `run`: false if filtered out. `err` is nil before and after (else thrown).
  @inline(__always)
  func step(_ v: inout rx_value, _ held: inout RxValue?, _ err: inout UnsafeMutablePointer<rx_error>?) throws
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
  static func takeMapResult(_ r: rx_value, _ err: UnsafeMutablePointer<rx_error>?, _ held: inout RxValue?) throws
    -> rx_value
  {
    let value = try CallbackResult.value(r, err, "rx_map")
    held = value
    return value.c
  }

  @inline(__always) static func isPlain(_ v: rx_value) -> Bool { v.kind.rawValue < RX_STRING.rawValue }

  @inline(__always) static func deliverPlain(_ v: rx_value, _ deliver: (consuming RxValue) -> Void) {
    switch v.kind {
    case RX_INT: deliver(.int(v.i))
    case RX_DOUBLE: deliver(.double(v.d))
    case RX_BOOL: deliver(.bool(v.b))
    case RX_PTR: deliver(.ptr(v.ptr))
    default: deliver(.none)
    }
  }
}

extension ObservableHandle {
  /// The handle is a pipeline with a stateful stage (which a stage over it inherits).
  var isStatefulPipeline: Bool {
    guard sort == .pipeline, let core = unretainedCore else { return false }
    return unsafeBitCast(core, to: Unmanaged<CPipeline>.self)._withUnsafeGuaranteedRef { $0.stateful }
  }
}
