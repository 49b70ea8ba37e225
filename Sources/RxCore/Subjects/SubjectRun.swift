/// The slots of a subject's observer list from one observer on, handed to that observer's
/// `Observer.onNext(at:run:)`: it may serve the next slots whose observers are of its own
/// class in the same pass (the C layer converts a value once per event that way, and calls
/// each C observer with no virtual call). Valid only during that call; the list does not
/// change meanwhile (the subject's handlers never nest). It ends with a sentinel slot, which
/// is no member.
public struct SubjectRun {
  @usableFromInline let base: UnsafePointer<UInt>

  @inlinable init(_ base: UnsafePointer<UInt>) { self.base = base }

  /// The object of the run's slot `i` (slot 0 is the observer's own; `i` may be at most the
  /// index of the first slot that was not a member), unretained, when it is an owned member
  /// that delivers runs (`Observer.deliversRuns`) and its class is exactly `cls` (its
  /// metadata pointer, the first word of an object); nil otherwise.
  @inlinable @inline(__always)
  public func member(_ i: Int, ofClass cls: UnsafeRawPointer) -> UnsafeRawPointer? {
    let bits = base[i]
    if bits & SubjectRun.tagMask != 0 { return nil }
    let p = UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped  // never 0: a listed object
    return p.load(as: UnsafeRawPointer.self) == cls ? p : nil
  }

  /// The low bits of a slot (see `SubjectObservers`): none are set on the slot of an owned
  /// member that delivers runs.
  @usableFromInline static var tagMask: UInt { 3 }
  /// The slot after the last one (tagged, so no member).
  @usableFromInline static var end: UInt { .max }
}
