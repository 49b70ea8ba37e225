import CRxc

/// One per-element step of a fused chain (map, filter): what `FusedPipeline` runs in a row
/// for each element, with no sink, event or vtable call between steps.
///
/// `Working` is how an element travels between steps. Swift's closure stages use `Value`
/// itself; the C layer uses its borrowed C view, so plain values pass from one C function to
/// the next with no conversion, and a step that makes a boxed value parks it in `held`, which
/// owns it until the next such step or the end of the chain.
///
/// Stages are stored by value and copied per element: keep them plain data where possible
/// (whoever built the pipeline keeps their resources alive, see `FusedPipeline.owner`).
public protocol FusedStage {
  associatedtype Working

  /// `element` as the steps see it, valid while `element` lives.
  static func working(_ element: Value) -> Working

  /// `working` of the element at `element` (a by-pointer delivery): a stage whose working
  /// form is a view reads it there, with no copy of the element.
  static func working(at element: UnsafePointer<Value>) -> Working

  /// `w` through this step; false if it is filtered out. A callback's error is thrown.
  func apply(_ w: inout Working, _ held: inout Value?) throws -> Bool

  /// `w` through the stages from `first` up to `end` (at least one), in order; false if one
  /// filtered it out, or if `stopped()` became true after a step (a step's callback disposed
  /// the subscription: no later step may run). A callback's error is thrown.
  ///
  /// The fused loop: a stage type whose steps share per-element state (the C layer's error
  /// slot) writes its own, so a hop costs its call and a few instructions. A step that makes
  /// a box sets `held` to it; a step with a plain result need not clear `held` (the box it
  /// replaced lives until the element is done): `w` is plain, or the box in `held` if set,
  /// or the input's.
  static func run(
    _ first: UnsafePointer<Self>, _ end: UnsafePointer<Self>, _ w: inout Working, _ held: inout Value?,
    _ stopped: () -> Bool
  ) throws -> Bool

  /// `run` of a pipeline of one stage (no other step, no `stopped` check).
  static func run(one stage: Self, _ w: inout Working, _ held: inout Value?) throws -> Bool

  /// This stage as one that a later stage follows in a pipeline's buffer (`fuse` marks each
  /// but the last): a `run` may stop at the unmarked one rather than compare with `end`.
  func followed() -> Self

  /// True if `w` holds no box: it can then be delivered as a plain value (`deliverPlain`) with
  /// no owner. A stage whose working form is always owned by `held` or the input says false.
  static func isPlain(_ w: Working) -> Bool

  /// Calls `deliver` with a plain `w` as a Value (only called when `isPlain(w)`), spelled out
  /// once per case of Value that `w` can be: each copy then knows its value holds no box
  /// (nothing to copy or destroy through Value's outlined every-case paths).
  static func deliverPlain(_ w: Working, _ deliver: (consuming Value) -> Void)

  /// A plain `w` as a C value, for a stage whose working form is one (the C stages): a C
  /// subscriber then takes it as it is. Nil for the others.
  static func cValue(_ w: Working) -> rx_value?
}

extension FusedStage {
  @inlinable @inline(__always)
  public static func working(at element: UnsafePointer<Value>) -> Working { working(element.pointee) }

  @inlinable @inline(__always) public func followed() -> Self { self }

  @inlinable @inline(__always) public static func cValue(_ w: Working) -> rx_value? { nil }

  @inlinable @inline(__always)
  public static func run(one stage: Self, _ w: inout Working, _ held: inout Value?) throws -> Bool {
    try stage.apply(&w, &held)
  }

  /// `apply` per stage.
  @inlinable @inline(__always)
  public static func run(
    _ first: UnsafePointer<Self>, _ end: UnsafePointer<Self>, _ w: inout Working, _ held: inout Value?,
    _ stopped: () -> Bool
  ) throws -> Bool {
    var s = first
    while true {
      guard try s.pointee.apply(&w, &held) else { return false }
      s += 1
      if s == end { return true }
      if stopped() { return false }
    }
  }
}

/// What the steps of a pipeline made of one element.
public enum FusedOutcome<Working> {
  case dropped
  /// A value with no box, in the stages' working form.
  case plain(Working)
  /// A value a step made (owned).
  case output(Value)
  /// Only filters ran on a boxed input: the input itself goes on.
  case input

  /// Something goes on downstream.
  @inlinable public var delivers: Bool {
    if case .dropped = self { return false }
    return true
  }
}
