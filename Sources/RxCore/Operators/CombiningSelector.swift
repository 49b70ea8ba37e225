/// How combine_latest and zip hand a combination to their caller: as a Swift array, or in
/// place, as a buffer valid only for the call. The buffer form reads the sink's own slots:
/// no array is filled and emptied per combination, and no element is copied or released
/// for it (the C layer's combine function takes exactly such a view).
@_spi(RxC) public enum CombiningSelector<Source, Result> {
  case array(([Source]) throws -> Result)
  case buffer((UnsafeBufferPointer<Source>) throws -> Result)
  /// The buffer form as an object, shared by every subscription (so it keeps no state per
  /// call). A sink calls it as a method of a class it holds: a stored closure is retained
  /// and released around every call (two atomic operations per combination).
  case function(CombiningFunction<Source, Result>)
}

/// A selector object (`CombiningSelector.function`); also what a sink holds for the two
/// closure forms (`ClosureCombining`).
@_spi(RxC) open class CombiningFunction<Source, Result> {
  public init() {}

  /// Bytes per source of each subscription's argument buffer (see `apply`): room for what
  /// the function derives from each element (the C layer: its `rx_value` view), so a
  /// combination refreshes only what changed. 0 (the default): no buffer. Read once per
  /// subscription.
  open var argumentStride: Int { 0 }

  /// What the sinks call: the result for the `count` elements at `elements` (the caller's,
  /// valid for the call), initialized at `result`. `arguments` is the subscription's buffer of
  /// `count * argumentStride` bytes (nil when the stride is 0), which only this function
  /// writes; `changed` is the one element that differs from the previous call with that
  /// buffer, or -1 when any may (the first call included). Pointers and integers only: an
  /// override for a concrete type needs no reabstraction thunk in the vtable (a method that
  /// returned `Result` would, a call and a copy of the result per combination).
  open func apply(
    _ elements: UnsafePointer<Source>?, count: Int, arguments: UnsafeMutableRawPointer?, changed: Int,
    into result: UnsafeMutablePointer<Result>
  ) throws {
    result.initialize(to: try combine(UnsafeBufferPointer(start: elements, count: count)))
  }

  /// The result for the combination at `elements`, which stays the caller's (valid for the
  /// call only). The plain form a subclass may override instead of `apply`.
  open func combine(_ elements: UnsafeBufferPointer<Source>) throws -> Result {
    preconditionFailure("CombiningFunction.combine is abstract")
  }
}

// rx:value-leaf super=apply
/// A closure form as a `CombiningFunction`. Not final: the `Value` leaf runs its body
/// specialized (the array form's array operations would look up types otherwise).
class ClosureCombining<Source, Result>: CombiningFunction<Source, Result> {
  var combiner: Combiner<Source, Result>
  init(_ selector: CombiningSelector<Source, Result>) { combiner = Combiner(selector) }

  override func apply(
    _ elements: UnsafePointer<Source>?, count: Int, arguments: UnsafeMutableRawPointer?, changed: Int,
    into result: UnsafeMutablePointer<Result>
  ) throws {
    result.initialize(to: try combiner.combine(UnsafeMutablePointer(mutating: elements), count))
  }

  override func combine(_ elements: UnsafeBufferPointer<Source>) throws -> Result {
    try combiner.combine(UnsafeMutablePointer(mutating: elements.baseAddress), elements.count)
  }
}

/// The per-sink side of a `CombiningSelector`: the array form's argument, refilled for each
/// combination (no allocation per event once warm). The two forms are kept apart: switching
/// over the enum per combination would copy (retain and release) the closure.
struct Combiner<Source, Result> {
  private let inPlace: ((UnsafeBufferPointer<Source>) throws -> Result)?
  private let withArray: (([Source]) throws -> Result)?
  private var arguments: [Source] = []

  init(_ selector: CombiningSelector<Source, Result>) {
    switch selector {
    case .buffer(let select): (inPlace, withArray) = (select, nil)
    case .array(let select): (inPlace, withArray) = (nil, select)
    case .function: preconditionFailure("a selector object is called as it is (CombiningProducer.makeFunction)")
    }
  }

  /// The selector's result for the `n` elements at `elements`, which stay the caller's.
  @inline(__always)
  mutating func combine(_ elements: UnsafeMutablePointer<Source>?, _ n: Int) throws -> Result {
    if let inPlace { return try inPlace(UnsafeBufferPointer(start: elements, count: n)) }
    if Source.self == Value.self && arguments.count == n && n > 0 {
      // Values lent, not copied: the array gets the elements' bits (no retain of a box) and
      // `.none` over them after the call (no release). A selector that kept the array makes
      // the second step copy it first (copy on write), and that copy's retains stand for the
      // kept array's elements, which it releases when it goes.
      arguments.withUnsafeMutableBufferPointer { a in
        UnsafeMutableRawPointer(a.baseAddress.unsafelyUnwrapped)
          .copyMemory(from: elements.unsafelyUnwrapped, byteCount: n * MemoryLayout<Source>.stride)
      }
      defer { forgetLent(n) }
      return try withArray!(arguments)
    }
    if arguments.count == n {
      arguments.withUnsafeMutableBufferPointer { a in
        for i in 0..<n { a[i] = elements.unsafelyUnwrapped[i] }
      }
    } else {
      arguments.removeAll(keepingCapacity: true)
      arguments.reserveCapacity(n)
      for i in 0..<n { arguments.append(elements.unsafelyUnwrapped[i]) }
    }
    defer { letGo(n) }
    return try withArray!(arguments)
  }

  /// `.none` over the `n` lent Values, none of them released (see `combine`).
  @inline(__always)
  private mutating func forgetLent(_ n: Int) {
    arguments.withUnsafeMutableBufferPointer { a in
      let values = UnsafeMutableRawPointer(a.baseAddress.unsafelyUnwrapped).assumingMemoryBound(to: Value.self)
      for i in 0..<n { (values + i).initialize(to: .none) }
    }
  }

  /// Lets go of the elements once the selector returned, as emptying the array did: Values
  /// are overwritten with `.none` in place (the length kept for the next refill; emptying and
  /// refilling cost a generic destroy and a `replaceSubrange` per combination); other types
  /// are removed. (A selector that kept the array gets a copy made here: it keeps its values.)
  @inline(__always)
  private mutating func letGo(_ n: Int) {
    guard Source.self == Value.self, n > 0 else { return arguments.removeAll(keepingCapacity: true) }
    arguments.withUnsafeMutableBufferPointer { a in
      let values = UnsafeMutableRawPointer(a.baseAddress!).assumingMemoryBound(to: Value.self)
      for i in 0..<n { values[i] = .none }
    }
  }
}
