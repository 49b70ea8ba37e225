import CRxc
@_spi(RxC) import RxCore

/// A pipeline from handles: rx_map and rx_filter make one (or extend their source's), rx_scan,
/// rx_take and rx_skip join one; a handle's pipeline that nothing else holds is kept as this
/// thread's spare.
extension CPipeline {
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
    _ source: ObservableHandle, seed: Value, _ fn: rx_accumulate_fn, _ ctx: UnsafeMutableRawPointer?,
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
    pipeline.emptyForReuse()
    let p = Unmanaged.passRetained(consume pipeline)
    if !rxc_spare_put_pipeline(p.toOpaque()) { p.release() }
  }
}

extension ObservableHandle {
  /// The handle is a pipeline with a stateful stage (which a stage over it inherits).
  var isStatefulPipeline: Bool {
    guard sort == .pipeline, let core = unretainedCore else { return false }
    return unsafeBitCast(core, to: Unmanaged<CPipeline>.self)._withUnsafeGuaranteedRef { $0.stateful }
  }
}
