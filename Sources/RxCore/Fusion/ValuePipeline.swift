extension Observable where Element == Value {
  /// `map` for Value: a fused stage (see `FusedPipeline`), chosen over the generic overload.
  /// Consuming: a `just` root is taken in as its element, and the just recycled when this
  /// was its last reference (`ValueJust.recycle`).
  public __consuming func map(_ transform: @escaping (Value) throws -> Value) -> Observable<Value> {
    let pipeline = ValuePipeline(transform: transform)
    pipeline.setRoot(self)
    ValueJust.recycle(consume self)
    return pipeline
  }

  /// `filter` for Value: a fused stage (see `FusedPipeline`), chosen over the generic overload.
  public __consuming func filter(_ predicate: @escaping (Value) throws -> Bool) -> Observable<Value> {
    let pipeline = ValuePipeline(predicate: predicate)
    pipeline.setRoot(self)
    ValueJust.recycle(consume self)
    return pipeline
  }
}

/// A Swift closure as a fused stage: the closure is the field of the pipeline that made the
/// stage, called borrowed from there, so a stage is plain data and its copy per element
/// retains nothing. (That pipeline outlives the stage: it is the sink's pipeline, or one it
/// extends, kept by `previous`.) Two optional closures in the stage cost an allocated
/// reabstraction thunk per call and a retain of each per copy.
///
/// Elements travel between steps as their bits (`Value.PlainBits`: a box is not retained),
/// as the C layer's stages pass its borrowed C view: the input's box is owned by the input,
/// a map's boxed result by `held`. Each closure gets the value borrowed, built where it is
/// called (a box through `_withUnsafeGuaranteedRef`), so a boxed element costs no retain and
/// release per step; measured, a `Value` working form cost three of each per map step.
enum ValueStage: FusedStage {
  case map(Unmanaged<ValuePipeline>)
  case filter(Unmanaged<ValuePipeline>)
  /// Only while its pipeline's `init` runs (the stage points back at the pipeline).
  case unset

  static func working(_ element: Value) -> Value.PlainBits { Value.bits(of: element) }
  static func working(at element: UnsafePointer<Value>) -> Value.PlainBits { Value.bits(at: element) }

  @inline(__always) func apply(_ w: inout Value.PlainBits, _ held: inout Value?) throws -> Bool {
    switch self {
    case .filter(let p):
      return try Value.withBorrowed(w) { v in try p._withUnsafeGuaranteedRef { try $0.predicate(v) } }
    case .map(let p):
      let r = try Value.withBorrowed(w) { v in try p._withUnsafeGuaranteedRef { try $0.transform(v) } }
      // Only a box needs an owner (the previous one's box is no longer read): a plain result
      // travels as its bits. Per case, so no outlined copy or destroy of `r` is left.
      switch consume r {
      case .int(let i): w = Value.PlainBits(payload: UInt64(bitPattern: i), tag: 0)
      case .boxed(let object):
        w = Value.PlainBits(payload: UInt64(UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())), tag: Value.boxedTag)
        held = .boxed(object)
        return true
      case .double(let d): w = Value.PlainBits(payload: d.bitPattern, tag: 1)
      case .bool(let b): w = Value.PlainBits(payload: b ? 1 : 0, tag: 2)
      case .ptr(let q): w = Value.PlainBits(payload: UInt64(UInt(bitPattern: q)), tag: 3)
      case .none: w = Value.PlainBits(payload: 0, tag: 5)
      }
      return true  // `held` may keep the box `w` was: see `FusedStage.run`
    case .unset:
      preconditionFailure("a stage runs before its pipeline is made")
    }
  }

  static func isPlain(_ w: Value.PlainBits) -> Bool { w.tag != Value.boxedTag }

  static func deliverPlain(_ w: Value.PlainBits, _ deliver: (consuming Value) -> Void) {
    switch w.tag {
    case 0: deliver(.int(Int64(bitPattern: w.payload)))
    case 1: deliver(.double(Double(bitPattern: w.payload)))
    case 2: deliver(.bool(w.payload & 0xff != 0))
    case 3: deliver(.ptr(UnsafeMutableRawPointer(bitPattern: UInt(w.payload))))
    default: deliver(.none)  // never boxed: see `isPlain`
    }
  }

  /// `deliverPlain` of a plain Value (a just's element, say).
  static func deliverPlain(_ w: Value, _ deliver: (consuming Value) -> Void) {
    switch w {
    case .int(let i): deliver(.int(i))
    case .double(let d): deliver(.double(d))
    case .bool(let b): deliver(.bool(b))
    case .ptr(let p): deliver(.ptr(p))
    case .none, .boxed: deliver(.none)  // never boxed
    }
  }
}

// rx:hand-leaf: not a leaf: the fused pipeline of Swift closures, held as plain fields read borrowed.
// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValuePipeline: FusedPipeline<ValueStage> {
  /// This stage's closure; the other one is a placeholder never called (two plain fields,
  /// read borrowed: no optional to unwrap, no enum payload to copy).
  let transform: (Value) throws -> Value
  let predicate: (Value) throws -> Bool

  /// Rootless: the caller sets the root (`setRoot`). Called from `init`, that call would cost
  /// a retain/release pair of the new object around it.
  init(transform: @escaping (Value) throws -> Value) {
    self.transform = transform
    predicate = { _ in true }
    super.init(.unset)
    step = .map(Unmanaged.passUnretained(self))
  }

  init(predicate: @escaping (Value) throws -> Bool) {
    transform = { $0 }
    self.predicate = predicate
    super.init(.unset)
    step = .filter(Unmanaged.passUnretained(self))
  }

  override func subscribe(_ observer: Observer<Value>) -> any Disposable { subscribeFused(observer) }

  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    start(ValuePipelineSink(self, stages: stages, observer: observer, cancel: cancel))
  }
}
