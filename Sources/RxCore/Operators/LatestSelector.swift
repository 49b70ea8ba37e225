/// How with_latest_from makes a result from an element and the latest element of the other
/// source: an object the sink holds and calls as a method (a stored closure would be
/// retained and released around every call), shared by every subscription.
class LatestSelector<Source, Other, Result> {
  /// Bytes of argument buffer per subscription, for the pair (`CombiningFunction`'s
  /// `argumentStride`, twice); 0: none.
  var argumentsSize: Int { 0 }

  /// The selector as a `CombiningFunction` over (element, latest), for a sink that calls it
  /// directly; nil for a closure. (Non-nil only when `Other` is `Source`.)
  var combining: CombiningFunction<Source, Result>? { nil }

  /// The result for the element at `element` with the one at `latest`, initialized at
  /// `result`; both stay the caller's (read in place: neither is copied for the call).
  /// `arguments`: the subscription's buffer of `argumentsSize` bytes (nil for 0), and whether
  /// `latest` changed since the previous call with it (the first call: true). Pointers only:
  /// the `Value` overrides need no reabstraction thunk.
  func select(
    _ element: UnsafePointer<Source>, _ latest: UnsafePointer<Other>, arguments: UnsafeMutableRawPointer?,
    latestChanged: Bool, into result: UnsafeMutablePointer<Result>
  ) throws {
    preconditionFailure("LatestSelector.select is abstract")
  }
}

/// A closure `(element, latest) -> result`. Not final: the `Value` leaf runs its body
/// specialized.
class ClosureLatestSelector<Source, Other, Result>: LatestSelector<Source, Other, Result> {
  let select: (Source, Other) throws -> Result
  init(_ select: @escaping (Source, Other) throws -> Result) { self.select = select }

  override func select(
    _ element: UnsafePointer<Source>, _ latest: UnsafePointer<Other>, arguments: UnsafeMutableRawPointer?,
    latestChanged: Bool, into result: UnsafeMutablePointer<Result>
  ) throws {
    result.initialize(to: try select(element.pointee, latest.pointee))
  }
}

// rx:value-leaf super=select
/// A `CombiningFunction` given the pair as a buffer of two: (element, latest). Not final:
/// the `Value` leaf runs its body specialized.
class CombiningLatestSelector<Element, Result>: LatestSelector<Element, Element, Result> {
  let function: CombiningFunction<Element, Result>
  init(_ function: CombiningFunction<Element, Result>) { self.function = function }

  override var argumentsSize: Int { 2 * function.argumentStride }
  override var combining: CombiningFunction<Element, Result>? { function }

  override func select(
    _ element: UnsafePointer<Element>, _ latest: UnsafePointer<Element>, arguments: UnsafeMutableRawPointer?,
    latestChanged: Bool, into result: UnsafeMutablePointer<Result>
  ) throws {
    try _withUnprotectedUnsafeTemporaryAllocation(of: Element.self, capacity: 2) { pair in
      // Bitwise views of the caller's two elements, valid for the call: neither is copied
      // (retained) into the pair nor destroyed out of it.
      let base = UnsafeMutableRawPointer(pair.baseAddress.unsafelyUnwrapped)
      base.copyMemory(from: element, byteCount: MemoryLayout<Element>.size)
      (base + MemoryLayout<Element>.stride).copyMemory(from: latest, byteCount: MemoryLayout<Element>.size)
      // The element is new every time; the latest only when `other` emitted since.
      try function.apply(
        UnsafePointer(pair.baseAddress), count: 2, arguments: arguments, changed: latestChanged ? -1 : 0, into: result)
    }
  }
}

// rx:hand-leaf: closure kept at its concrete type, lent the element by Value.withBorrowed.
final class ValueClosureLatestSelector: ClosureLatestSelector<Value, Value, Value> {
  override func select(
    _ element: UnsafePointer<Value>, _ latest: UnsafePointer<Value>, arguments: UnsafeMutableRawPointer?,
    latestChanged: Bool, into result: UnsafeMutablePointer<Value>
  ) throws {
    result.initialize(to: try Value.withBorrowed(at: element, latest) { try select($0, $1) })
  }
}
