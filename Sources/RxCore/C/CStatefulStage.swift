import CRxc

/// A fused stage that keeps state per subscription: rx_scan's accumulator, the count of an
/// rx_take or rx_skip over a pipeline. Each is an ordinary `CStage` (a map or a filter)
/// whose function is one of this file's and whose ctx is its state, so the stage loop runs
/// it as it runs a user's function, with no branch of its own. The pipeline's stage points to
/// a template (`Template`, the pipeline's owner); each subscription's sink runs a copy of the
/// stages (`copies`) in which every such stage points to a state of its own, so subscriptions
/// share no count or accumulator, and map -> scan -> filter -> take is one loop in one sink.
@_spi(RxC) public struct CStatefulStage {
  public enum Kind {
    case scan(rx_accumulate_fn, UnsafeMutableRawPointer?, seed: Value)
    case take(Int)
    case skip(Int)
  }

  /// scan: the user's function and its ctx (plain fields: the step reads them per element).
  public let accumulate: rx_accumulate_fn?
  public let userCtx: UnsafeMutableRawPointer?
  public let isTake: Bool
  /// take: elements still to let through; skip: elements still to drop.
  public var count: Int
  /// scan: the accumulator's C view (plain, or a view of `accumulator`'s box).
  public var acc: rx_value
  /// scan: owns a boxed accumulator (`.none` for a plain one).
  public var accumulator: Value
  /// take: the sink's flag that ends the subscription after this element.
  public var ends: UnsafeMutablePointer<Bool>?

  public init(_ kind: Kind) {
    switch kind {
    case .scan(let fn, let ctx, let seed): (accumulate, userCtx, isTake, count, accumulator) = (fn, ctx, false, 0, seed)
    case .take(let n): (accumulate, userCtx, isTake, count, accumulator) = (nil, nil, true, n, .none)
    case .skip(let n): (accumulate, userCtx, isTake, count, accumulator) = (nil, nil, false, n, .none)
    }
    acc = accumulator.c
    ends = nil
  }

  // MARK: the steps, as C functions over their state

  /// rx_scan as a map: the new accumulator, owned by the caller as a map result is (a plain
  /// value, or the box retained once more), or with *err set.
  public static let scanStep: rx_map_fn = { state, v, err in
    state.unsafelyUnwrapped.assumingMemoryBound(to: CStatefulStage.self).pointee.scan(v, err.unsafelyUnwrapped)
  }

  /// rx_take as a filter: true for the first `count` elements; the last one sets `ends`.
  public static let takeStep: rx_predicate_fn = { state, _, _ in
    let s = state.unsafelyUnwrapped.assumingMemoryBound(to: CStatefulStage.self)
    if s.pointee.count <= 0 { return false }  // (the sink completes once the count runs out)
    s.pointee.count &-= 1
    if s.pointee.count == 0 {
      s.pointee.ends.unsafelyUnwrapped.pointee = true
      SynchronousStop.noteStop()  // a synchronous loop looks at `ends` only after a stop
    }
    return true
  }

  /// rx_skip as a filter: false for the first `count` elements.
  public static let skipStep: rx_predicate_fn = { state, _, _ in
    let s = state.unsafelyUnwrapped.assumingMemoryBound(to: CStatefulStage.self)
    if s.pointee.count <= 0 { return true }
    s.pointee.count &-= 1
    return false
  }

  @inline(__always)
  private mutating func scan(_ v: rx_value, _ err: UnsafeMutablePointer<UnsafeMutablePointer<rx_error>?>) -> rx_value {
    let r = accumulate.unsafelyUnwrapped(userCtx, acc, v, err)
    if _fastPath(err.pointee == nil && r.kind.rawValue < RX_STRING.rawValue) {
      if acc.kind.rawValue >= RX_STRING.rawValue { accumulator = .none }  // the old box goes
      acc = r
      return r
    }
    return takeResult(r, err)
  }

  /// A boxed accumulator (kept, and a reference returned), or an error (left in *err).
  @inline(never)
  private mutating func takeResult(_ r: rx_value, _ err: UnsafeMutablePointer<UnsafeMutablePointer<rx_error>?>)
    -> rx_value
  {
    do {
      let e = err.pointee
      err.pointee = nil
      accumulator = try CallbackResult.value(r, e, "rx_scan")
      acc = accumulator.c
      return accumulator.ownedC
    } catch {
      // Owned, as a callback's error is (CallbackResult takes it back).
      err.pointee = Unmanaged.passRetained(ErrorObject.from(error)).toOpaque().assumingMemoryBound(to: rx_error.self)
      return rx_value(kind: RX_NONE, i: 0)
    }
  }

  /// Whether a stage's function is one of these steps.
  public static func isStep(map: rx_map_fn?, filter: rx_predicate_fn?) -> Bool {
    if let map { return address(map) == address(scanStep) }
    if let filter { return address(filter) == address(takeStep) || address(filter) == address(skipStep) }
    return false
  }

  private static func address<F>(_ fn: F) -> UnsafeRawPointer { unsafeBitCast(fn, to: UnsafeRawPointer.self) }

  // MARK: ownership

  /// The pipeline's copy of a stage's state, which each subscription's starts from: owned by
  /// the pipeline (`FusedPipeline.owner`) with the callback's context.
  public final class Template {
    let state: UnsafeMutablePointer<CStatefulStage>
    let context: CContext?

    public init(_ kind: Kind, _ context: CContext?) {
      state = .allocate(capacity: 1)
      state.initialize(to: CStatefulStage(kind))
      self.context = context
    }

    deinit {
      state.deinitialize(count: 1)
      state.deallocate()
    }

    /// The stage over this state.
    public var cStage: CStage {
      let ctx = UnsafeMutableRawPointer(state)
      if state.pointee.accumulate != nil { return CStage(map: CStatefulStage.scanStep, filter: nil, ctx: ctx) }
      return CStage(map: nil, filter: state.pointee.isTake ? CStatefulStage.takeStep : CStatefulStage.skipStep, ctx: ctx)
    }
  }

  /// A subscription's stages: `stages` with each stateful one over a fresh state (a copy of
  /// its template's), and the flag a take sets to end the subscription.
  public static func copies(of pipeline: CPipeline) -> (UnsafeMutableBufferPointer<CStage>, UnsafeMutablePointer<Bool>) {
    let ends = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
    ends.initialize(to: false)
    let count = max(pipeline.stages.count, 1)  // (none: `step` alone)
    let own = UnsafeMutableBufferPointer<CStage>.allocate(capacity: count)
    for k in 0..<count {
      let stage = pipeline.stages.isEmpty ? pipeline.step : pipeline.stages[k]
      var copy = stage
      if stage.isStateful {
        let template = stage.ctx.unsafelyUnwrapped.assumingMemoryBound(to: CStatefulStage.self)
        let state = UnsafeMutablePointer<CStatefulStage>.allocate(capacity: 1)
        state.initialize(to: template.pointee)  // a boxed accumulator retained, its view the same box
        state.pointee.ends = ends
        copy = CStage(map: stage.map, filter: stage.filter, ctx: UnsafeMutableRawPointer(state))
        copy.hasNext = stage.hasNext
      }
      (own.baseAddress! + k).initialize(to: copy)
    }
    return (own, ends)
  }

  /// Frees what `copies` made.
  public static func release(_ own: UnsafeMutableBufferPointer<CStage>, _ ends: UnsafeMutablePointer<Bool>) {
    for stage in own where stage.isStateful {
      let state = stage.ctx.unsafelyUnwrapped.assumingMemoryBound(to: CStatefulStage.self)
      state.deinitialize(count: 1)
      state.deallocate()
    }
    _ = own.deinitialize()
    own.deallocate()
    ends.deallocate()
  }
}
