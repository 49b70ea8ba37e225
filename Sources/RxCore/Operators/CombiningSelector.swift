/// How combine_latest and zip hand a combination to their caller: as a Swift array, or in
/// place, as a buffer valid only for the call. The buffer form reads the sink's own slots:
/// no array is filled and emptied per combination, and no element is copied or released
/// for it (the C layer's combine function takes exactly such a view).
public enum CombiningSelector<Source, Result> {
  case array(([Source]) throws -> Result)
  case buffer((UnsafeBufferPointer<Source>) throws -> Result)
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
    }
  }

  /// The selector's result for the `n` elements at `elements`, which stay the caller's.
  @inline(__always)
  mutating func combine(_ elements: UnsafeMutablePointer<Source>, _ n: Int) throws -> Result {
    if let inPlace { return try inPlace(UnsafeBufferPointer(start: elements, count: n)) }
    arguments.reserveCapacity(n)
    for i in 0..<n { arguments.append(elements[i]) }
    defer { arguments.removeAll(keepingCapacity: true) }
    return try withArray!(arguments)
  }
}
