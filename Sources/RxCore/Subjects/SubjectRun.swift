/// The slots of a subject's observer list from one observer on, handed to that observer's
/// `Observer.onNext(at:run:)`: it may serve the next slots whose observers are of its own
/// class in the same pass (the C layer converts a value once per event that way, and calls
/// each C observer with no virtual call). Valid only during that call; the list does not
/// change meanwhile (the subject's handlers never nest). It ends with a sentinel slot, which
/// is no member.
public struct SubjectRun {
  /// The observer's own slot; the run's next slots follow it.
  public let first: UnsafePointer<UInt>

  @inlinable init(_ first: UnsafePointer<UInt>) { self.first = first }

  /// True when a slot (`bits`) after the observer's own holds an owned member that delivers
  /// runs (`Observer.deliversRuns`) whose class is exactly `cls` (its metadata pointer, the
  /// first word of an object); false for any other, and for the slot after the last member.
  /// Read only slots up to the first false.
  @inlinable @inline(__always)
  public static func isMember(_ bits: UInt, ofClass cls: UnsafeRawPointer) -> Bool {
    bits & SubjectRun.tagMask == 0 && object(bits).load(as: UnsafeRawPointer.self) == cls
  }

  /// The object of an untagged slot, unretained. (Never 0: a listed object; no optional, so
  /// a caller's loop tests only the tag and the class.)
  @inlinable @inline(__always)
  public static func object(_ bits: UInt) -> UnsafeRawPointer {
    UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped
  }

  /// The low bits of a slot (see `SubjectObservers`): none are set on the slot of an owned
  /// member that delivers runs.
  @usableFromInline static var tagMask: UInt { 3 }
  /// The slot after the last one (tagged, so no member).
  @usableFromInline static var end: UInt { .max }
}
