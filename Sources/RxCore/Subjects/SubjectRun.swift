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

  /// What a run does with a slot (`bits`) after the observer's own, for a run of class `cls`
  /// (its metadata pointer, the first word of an object): `.deliver` to an owned member that
  /// delivers runs (`Observer.deliversRuns`) of exactly that class, or to the next target
  /// (`Observer.nextTarget`) of a subscription whose target is one; `.skip` a disposed such
  /// subscription; `.end` at any other slot, and at the slot after the last member. Read only
  /// slots up to the first `.end`.
  @inlinable @inline(__always)
  public static func step(_ bits: UInt, ofClass cls: UnsafeRawPointer) -> Step {
    if bits & tagMask == 0 {
      let o = object(bits)
      return o.load(as: UnsafeRawPointer.self) == cls ? .deliver(o) : .end
    }
    guard bits & subscriptionRunMask == subscriptionRunMask else { return .end }
    return Unmanaged<SubjectSubscription>.fromOpaque(object(bits & ~subscriptionRunMask))._withUnsafeGuaranteedRef { s in
      let target = UnsafeRawPointer(s.nextObserver.unsafelyUnwrapped.toOpaque())
      guard target.load(as: UnsafeRawPointer.self) == cls else { return .end }
      return s.isDisposed ? .skip : .deliver(target)
    }
  }

  public enum Step { case deliver(UnsafeRawPointer), skip, end }

  /// The object of an untagged slot, unretained. (Never 0: a listed object; no optional, so
  /// a caller's loop tests only the tag and the class.)
  @inlinable @inline(__always)
  public static func object(_ bits: UInt) -> UnsafeRawPointer {
    UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped
  }

  /// The low bits of a slot (see `SubjectObservers`): none are set on the slot of an owned
  /// member that delivers runs.
  @usableFromInline static var tagMask: UInt { 3 }
  /// All three set: a subscription (bit 0) whose next target takes `.next` by pointer (bit 1)
  /// and delivers runs (bit 2). Objects are 16-byte aligned, so a pointer leaves them clear.
  @usableFromInline static var subscriptionRunMask: UInt { 7 }
  /// The slot after the last one: tagged as an owned member that delivers no runs, with no
  /// object, so a run ends there and nothing reads it as an object.
  @usableFromInline static var end: UInt { 2 }
}
