import CRxc
@_spi(RxC) import RxCore

/// A pipeline from handles: rx_map and rx_filter make one (or extend their source's);
/// rx_scan, rx_take and rx_skip join one (the core's rule, `CPipeline.joining`).
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

  /// rx_scan, rx_take, rx_skip: a stage with state over a pipeline handle (see `joining`).
  static func joining(_ source: ObservableHandle, _ kind: CStatefulStage.Kind, ctxFree: rx_free_fn? = nil) -> CPipeline? {
    joining(source.pipeline, kind, ctxFree: ctxFree)
  }

  @inline(__always)
  private static func make(_ source: ObservableHandle, _ stage: CStage, _ ctxFree: rx_free_fn?) -> CPipeline {
    let pipeline = refilled(stage)
    if let ctxFree { pipeline.owner = Unmanaged<AnyObject>.passRetained(CContext(stage.ctx, ctxFree)) }
    pipeline.setRoot(from: source)
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
    if source.sort == .pipeline { return extend(unsafeBitCast(core, to: Unmanaged<CPipeline>.self)) }
    setRoot(core.takeUnretainedValue())
  }
}

extension ObservableHandle {
  /// The pipeline of a pipeline handle (rx_map, rx_filter and what joined them), unretained.
  var pipeline: Unmanaged<CPipeline>? {
    guard sort == .pipeline, let core = unretainedCore else { return nil }
    return unsafeBitCast(core, to: Unmanaged<CPipeline>.self)
  }
}
