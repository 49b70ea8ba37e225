/// How with_latest_from makes a result from an element and the latest element of the other
/// source: an object the sink holds and calls as a method (a stored closure would be
/// retained and released around every call), shared by every subscription.
class LatestSelector<Source, Other, Result> {
  /// The selector as a `CombiningFunction` over (element, latest), which the sink calls
  /// itself, with an argument buffer of its own; nil for a closure. (Non-nil only when
  /// `Other` is `Source`.)
  var combining: CombiningFunction<Source, Result>? { nil }

  /// The result for the element at `element` with the one at `latest`, initialized at
  /// `result`; both stay the caller's (read in place: neither is copied for the call).
  /// Pointers only: the `Value` overrides need no reabstraction thunk.
  func select(
    _ element: UnsafePointer<Source>, _ latest: UnsafePointer<Other>, into result: UnsafeMutablePointer<Result>
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
    _ element: UnsafePointer<Source>, _ latest: UnsafePointer<Other>, into result: UnsafeMutablePointer<Result>
  ) throws {
    result.initialize(to: try select(element.pointee, latest.pointee))
  }
}

// rx:value-leaf super=select
/// A `CombiningFunction` given the pair as a buffer of two: (element, latest). The sink calls
/// `combining` itself; `select` serves any other caller. Not final: the `Value` leaf runs its
/// body specialized.
class CombiningLatestSelector<Element, Result>: LatestSelector<Element, Element, Result> {
  let function: CombiningFunction<Element, Result>
  init(_ function: CombiningFunction<Element, Result>) { self.function = function }

  override var combining: CombiningFunction<Element, Result>? { function }

  override func select(
    _ element: UnsafePointer<Element>, _ latest: UnsafePointer<Element>, into result: UnsafeMutablePointer<Result>
  ) throws {
    try _withUnprotectedUnsafeTemporaryAllocation(of: Element.self, capacity: 2) { pair in
      // Bitwise views of the caller's two elements, valid for the call: neither is copied
      // (retained) into the pair nor destroyed out of it.
      let base = UnsafeMutableRawPointer(pair.baseAddress.unsafelyUnwrapped)
      base.copyMemory(from: element, byteCount: MemoryLayout<Element>.size)
      (base + MemoryLayout<Element>.stride).copyMemory(from: latest, byteCount: MemoryLayout<Element>.size)
      try function.apply(UnsafePointer(pair.baseAddress), count: 2, arguments: nil, changed: -1, into: result)
    }
  }
}

// rx:hand-leaf: closure kept at its concrete type, lent the element by Value.withBorrowed.
final class ValueClosureLatestSelector: ClosureLatestSelector<Value, Value, Value> {
  override func select(
    _ element: UnsafePointer<Value>, _ latest: UnsafePointer<Value>, into result: UnsafeMutablePointer<Value>
  ) throws {
    result.initialize(to: try Value.withBorrowed(at: element, latest) { try select($0, $1) })
  }
}
