import CRxc
import RxCore

/// rx_map and rx_filter. Consecutive ones fuse: map(f) -> filter(p) -> map(g) is one
/// subscription to the first source with one sink that calls f, p and g in a row (no sink,
/// vtable call or wantsNoMoreEvents level per stage, and the C functions are called
/// directly). Each stage is still an observable of its own: subscribed, it runs the stages up
/// to itself.
final class RxPipeline: Producer<RxValue> {
  /// One stage's function: exactly one of the two, called with `ctx`. Plain data (the
  /// pipelines own the contexts), so running the stages retains nothing.
  struct Step {
    let map: rx_map_fn?
    let filter: rx_predicate_fn?
    let ctx: UnsafeMutableRawPointer?

    /// `v` through this step; false if filtered out, or if the sink is disposed (no user call
    /// once disposed: a racing upstream event must not reach C). A callback's error is
    /// thrown. `held` owns `v` when a map returned a boxed value; plain values need no owner,
    /// so they pass between steps as they are (no RxValue conversion per step).
    @inline(__always)
    func apply(_ v: inout rx_value, _ held: inout RxValue?, _ sink: RxPipelineSink?) throws -> Bool {
      if let sink, sink.isDisposed { return false }
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
  }

  // The fields are filled in by `make` and emptied by `recycle` by hand: a spare pipeline is
  // refilled per just -> map -> subscribe lifecycle, and the generic enum copies and destroys
  // of an `RxSource` and optional references cost more than the rest of the refill.

  /// The first stage's source when it is an observable (owned), else nil: then `scalar` is.
  private(set) var rootObservable: Unmanaged<Observable<RxValue>>?
  /// The first stage's source when it is an rx_just value; `.none` otherwise.
  private(set) var scalar: RxValue = .none
  /// The pipeline this one extends (owned): keeps the earlier stages' contexts alive.
  private var previous: Unmanaged<RxPipeline>?
  /// The earlier stages' steps, in order: a plain buffer (an array would be retained and
  /// released per element); empty, so no allocation, for a single stage.
  private(set) var earlier: UnsafeMutableBufferPointer<Step>
  private(set) var step: Step
  /// The CContext of `step` (owned), if it has a ctx_free.
  private var owner: Unmanaged<CContext>?

  static func map(_ source: ObservableHandle, _ fn: rx_map_fn, _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?)
    -> RxPipeline
  {
    make(source, Step(map: fn, filter: nil, ctx: ctx), ctxFree)
  }

  static func filter(
    _ source: ObservableHandle, _ fn: rx_predicate_fn, _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?
  ) -> RxPipeline {
    make(source, Step(map: nil, filter: fn, ctx: ctx), ctxFree)
  }

  /// A new pipeline, or this thread's spare refilled (see `recycle`).
  @inline(__always)
  private static func make(_ source: ObservableHandle, _ step: Step, _ ctxFree: rx_free_fn?) -> RxPipeline {
    let pipeline: RxPipeline
    if let p = rxc_spare_take_pipeline() {
      pipeline = Unmanaged<RxPipeline>.fromOpaque(p).takeRetainedValue()
      pipeline.step = step
    } else {
      pipeline = RxPipeline(step)
    }
    if let ctxFree { pipeline.owner = Unmanaged.passRetained(CContext(step.ctx, ctxFree)) }
    pipeline.fill(from: source)
    return pipeline
  }

  private init(_ step: Step) {
    earlier = UnsafeMutableBufferPointer(start: nil, count: 0)
    self.step = step
  }

  /// Sets the stages before `step` (all empty before): `source`'s own, fused, if it is a
  /// pipeline.
  @inline(__always)
  private func fill(from source: ObservableHandle) {
    guard let core = source.unretainedCore else {
      source.copyScalar(into: &scalar)  // rx_just (this holds `.none`)
      return
    }
    guard source.sort == .pipeline || core._withUnsafeGuaranteedRef({ type(of: $0) == RxPipeline.self }) else {
      rootObservable = core.retain()
      return
    }
    fuse(with: unsafeBitCast(core, to: Unmanaged<RxPipeline>.self))
  }

  /// Extends pipeline `p`: its root, and its stages as this one's earlier ones.
  @inline(never)
  private func fuse(with pu: Unmanaged<RxPipeline>) {
    let p = pu._withUnsafeGuaranteedRef { $0 }
    if let o = p.rootObservable { rootObservable = o.retain() } else { scalar = p.scalar }
    previous = pu.retain()
    earlier = UnsafeMutableBufferPointer<Step>.allocate(capacity: p.earlier.count + 1)
    _ = earlier.initialize(from: p.earlier)
    (earlier.baseAddress! + p.earlier.count).initialize(to: p.step)
  }

  deinit {
    rootObservable?.release()
    previous?.release()
    owner?.release()
    earlier.deallocate()  // Step is plain data: nothing to deinitialize
  }

  /// Releases a handle's pipeline. A pipeline that nothing else holds is emptied (its value,
  /// contexts and earlier stages released now, as its deinit would) and kept as this
  /// thread's spare: a just -> map -> subscribe lifecycle then allocates no pipeline.
  @inline(__always)
  static func recycle(_ core: Unmanaged<RxPipeline>) {
    var pipeline = core.takeRetainedValue()
    guard isKnownUniquelyReferenced(&pipeline), mayReuseUniqueObject() else { return }
    pipeline.empty()
    let p = Unmanaged.passRetained(consume pipeline)
    if !rxc_spare_put_pipeline(p.toOpaque()) { p.release() }
  }

  /// Back to the state of a spare: no source, stages or context (each released if there).
  @inline(__always)
  private func empty() {
    if let o = rootObservable {
      rootObservable = nil
      o.release()
    } else {
      ValueSlot.empty(&scalar)
    }
    if previous != nil || owner != nil || earlier.baseAddress != nil { emptyTheRest() }
  }

  @inline(never)
  private func emptyTheRest() {
    previous?.release()
    previous = nil
    owner?.release()
    owner = nil
    earlier.deallocate()
    earlier = UnsafeMutableBufferPointer(start: nil, count: 0)
  }

  override func subscribe(_ observer: Observer<RxValue>) -> any Disposable {
    guard rootObservable == nil else { return super.subscribe(observer) }
    emitScalar(scalar, observer)
    return NopDisposable.shared
  }

  /// An rx_just source (scalar fusion): its element through the stages and on to `observer`
  /// directly, with no sink or disposer: the events a sink would forward (next and completed,
  /// completed alone if filtered out, or the error), and nothing to dispose afterwards.
  private func emitScalar(_ element: RxValue, _ observer: Observer<RxValue>) {
    let out: RxValue?
    do { out = try process(element, nil) } catch {
      observer.on(.error(error))
      return
    }
    if let out { observer.on(.next(out)) }
    observer.on(.completed)
  }

  override func run(_ observer: Observer<RxValue>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    guard let source = rootObservable?.takeUnretainedValue() else { preconditionFailure("a scalar is emitted by subscribe") }
    let sink = RxPipelineSink(self, observer: observer, cancel: cancel)
    if type(of: source) == RxRange.self {
      sink.run(unsafeDowncast(source, to: RxRange.self))
      return (sink, NopDisposable.shared)
    }
    return (sink, source.subscribe(sink))
  }

  /// What the stages made of an element.
  enum Outcome {
    case dropped
    /// A plain value (not boxed), as C sees it.
    case plain(rx_value)
    case output(RxValue)
    /// Only filters ran on a boxed input: the input itself goes on.
    case input

    /// Something goes on downstream.
    var delivers: Bool {
      if case .dropped = self { return false }
      return true
    }
  }

  /// `v` through every stage up to this one (see `Step.apply`). `v` is borrowed from the
  /// caller's element (or plain), and then owned by `held` once a map returned a boxed value.
  @inline(__always)
  func process(_ input: rx_value, _ sink: RxPipelineSink?) throws -> Outcome {
    var v = input
    var held: RxValue? = nil
    for s in earlier {
      guard try s.apply(&v, &held, sink) else { return .dropped }
    }
    guard try step.apply(&v, &held, sink) else { return .dropped }
    switch consume held {  // consumed: no outlined destroy of a nil on the plain path
    case .some(let out): return .output(out)
    case .none: break
    }
    if v.kind.rawValue < RX_STRING.rawValue { return .plain(v) }
    return .input
  }

  /// The rx_just root through every stage: `next` gets the outcome (valid for the call)
  /// unless it was dropped.
  @inline(__always)
  func runScalar(_ next: (rx_value) -> Void) throws {
    let input = scalar.c  // borrowed: this pipeline holds its box (and others may read it too)
    switch try process(input, nil) {
    case .dropped: break
    case .plain(let v): next(v)
    case .output(let out): withExtendedLifetime(out) { next(out.c) }
    case .input: next(input)
    }
  }

  /// `input` through every stage up to this one; nil if dropped.
  @inline(__always)
  func process(_ input: RxValue, _ sink: RxPipelineSink?) throws -> RxValue? {
    switch try process(input.c, sink) {
    case .dropped: return nil
    case .plain(let v): return RxValue.from(v, "rx_map")
    case .output(let out): return out
    case .input: return input
    }
  }
}

final class RxPipelineSink: Sink<RxValue, RxValue> {
  let pipeline: RxPipeline
  /// The observer takes `.next` by pointer (a C observer): plain values reach it with no
  /// `Event` and no reabstraction thunk.
  private let nextByPointer: Bool

  init(_ pipeline: RxPipeline, observer: Observer<RxValue>, cancel: any Cancelable) {
    self.pipeline = pipeline
    nextByPointer = observer.takesNextByPointer
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<RxValue>) {
    if isDisposed { return }
    switch event {
    case .next(let v):
      let out: RxPipeline.Outcome
      do { out = try pipeline.process(v.c, self) } catch {
        forwardTerminal(.error(error))
        return
      }
      switch out {
      case .plain(let c): forwardPlain(c)
      case .output(let value): forwardOn(.next(value))
      case .input: forwardOn(.next(v))
      case .dropped: break
      }
    case .error, .completed: forwardTerminal(event)
    }
  }

  /// A range source fused in (range -> pipeline): its integers go straight into the stages,
  /// with no range sink, event or RxValue per element. The same events and checks as the
  /// range's own loop: it stops once this sink is disposed or nobody downstream wants more.
  ///
  /// `wantsNoMoreEvents` is asked before the first element and after each one delivered:
  /// only a delivery (or a dispose, which `isDisposed` sees) can change it.
  func run(_ range: RxRange) {
    let downstream = observer  // a local: through `self` it is retained around every call
    var i: Int64 = 0
    if downstream.wantsNoMoreEvents { return on(.completed) }
    while i < Int64(range.count), !isDisposed {
      var v = rx_value()
      v.kind = RX_INT
      v.i = range.start &+ i
      i += 1
      let out: RxPipeline.Outcome
      do { out = try pipeline.process(v, self) } catch {
        forwardTerminal(.error(error))
        return
      }
      let delivers = out.delivers
      switch consume out {
      case .plain(let v): forwardPlain(v)
      case .output(let value): forwardOn(.next(value))
      case .dropped, .input: break  // an integer input is plain: never `.input`
      }
      if delivers && downstream.wantsNoMoreEvents { break }
    }
    on(.completed)
  }

  /// A plain value on, case by case: each event is then known to hold no box, and is not
  /// copied and destroyed through the generic RxValue paths.
  @inline(__always)
  private func forwardPlain(_ v: rx_value) {
    switch v.kind {
    case RX_INT: forwardPlain(.int(v.i))
    case RX_DOUBLE: forwardPlain(.double(v.d))
    case RX_BOOL: forwardPlain(.bool(v.b))
    case RX_PTR: forwardPlain(.ptr(v.ptr))
    default: forwardPlain(.none)
    }
  }

  /// Inlined per case, so the compiler sees a value with nothing to destroy.
  @inline(__always)
  private func forwardPlain(_ value: consuming RxValue) {
    if !nextByPointer { return forwardOn(.next(value)) }
    if isDisposed { return }
    _withUnprotectedUnsafePointer(to: value) { observer.onNext(at: $0) }
  }
}
