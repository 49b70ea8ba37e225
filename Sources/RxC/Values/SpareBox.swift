/// The box a sink sent last, kept so that its next result can reuse it: once every other
/// reference is gone (the subscriber kept no retained copy), nobody can see the box change,
/// and a new result costs no allocation. A box someone still holds is left to them.
struct SpareBox<Box: ValueBox> {
  private var box: Box?

  /// The kept box if nothing else references it, to be refilled; else nil.
  @inline(__always) mutating func reusable() -> Box? { isKnownUniquelyReferenced(&box) ? box : nil }

  /// Keeps `box`, a new result's, for the next one.
  @inline(__always) mutating func keep(_ box: Box) { self.box = box }
}
