import CRxc

/// The observable of rx_map, rx_filter, rx_scan, and of rx_take and rx_skip over one of
/// these: the core's fused pipeline (`FusedPipeline`, which has all of the Rx behaviour) with
/// C function stages, as a leaf class for its specialized code. What is here is marshalling
/// (`CStage`, `CStatefulStage`) and handle memory: the pipeline's C context, the rx_just
/// value of a handle as its root, and this thread's spare pipeline.
@_spi(RxC) public final class CPipeline: FusedPipeline<CStage> {
  /// Some stage keeps state per subscription (`CStage.isStateful`).
  public final var stateful = false

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
