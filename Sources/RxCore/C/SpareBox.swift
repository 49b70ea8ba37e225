/// The box a sink sent last, kept so that its next result can reuse it: once every other
/// reference is gone (the subscriber kept no retained copy), nobody can see the box change,
/// and a new result costs no allocation. A box someone still holds is left to them.
@_spi(RxC) public struct SpareBox<Box: ValueBox> {
  private var box: Box?
  /// A result is being delivered in the kept box, unretained (see `lend`).
  public private(set) var lending = false

  public init() {}

  /// For a result lent to a call rather than handed over: the kept box, unretained, if
  /// nothing else references it (the caller refills it), else nil (the caller makes one and
  /// `keep`s it). Either stays valid until the next call, which the caller must not make
  /// while it lends the box (a delivery that re-enters takes `next`).
  @inline(__always) public mutating func reusable() -> Unmanaged<Box>? {
    guard isKnownUniquelyReferenced(&box), let kept = box else { return nil }
    return Unmanaged.passUnretained(kept)
  }

  /// Keeps `made` as the box; unretained, as `reusable`.
  @inline(__always) public mutating func keep(_ made: Box) -> Unmanaged<Box> {
    box = made
    return Unmanaged.passUnretained(made)
  }

  /// Lends `deliver` a result in the kept box, `refill`ed, or in a box from `make` kept in
  /// its place, unretained: no retain and release of it per element. Not while a result is
  /// lent already (`lending`: a delivery that re-enters), where the caller makes its own.
  @inline(__always) public mutating func lend(
    refill: (Box) -> Void, make: () -> Box, to deliver: (UnsafePointer<Value>) -> Void
  ) {
    let box: Unmanaged<Box>
    if let kept = reusable() {
      kept._withUnsafeGuaranteedRef { refill($0) }  // (a closure literal: inlined with `refill`)
      box = kept
    } else {
      box = keep(make())
    }
    lending = true
    Value.withBorrowedBoxed(unsafeBitCast(box, to: Unmanaged<AnyObject>.self), deliver)
    lending = false
  }

  /// The next result: the kept box `refill`ed if nothing else references it, else a box
  /// from `make`, kept in its place.
  @inline(__always) public mutating func next(refill: (Box) -> Void, make: () -> Box) -> Value {
    if let kept = reusable() {
      kept._withUnsafeGuaranteedRef(refill)
      return .boxed(kept.takeUnretainedValue())
    }
    return .boxed(keep(make()).takeUnretainedValue())
  }
}
