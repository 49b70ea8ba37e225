/// The box a sink sent last, kept so that its next result can reuse it: once every other
/// reference is gone (the subscriber kept no retained copy), nobody can see the box change,
/// and a new result costs no allocation. A box someone still holds is left to them.
struct SpareBox<Box: ValueBox> {
  private var box: Box?

  /// The next result: the kept box `refill`ed if nothing else references it, else a box
  /// from `make`, kept in its place.
  @inline(__always) mutating func next(refill: (Box) -> Void, make: () -> Box) -> RxValue {
    if isKnownUniquelyReferenced(&box), let box {
      refill(box)
      return .boxed(box)
    }
    let made = make()
    box = made
    return .boxed(made)
  }
}
