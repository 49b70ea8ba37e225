import Synchronization

/// The call-time mirror of a subject's lifecycle. The authoritative state belongs to the
/// subject's drain, but a call made after `dispose()` or after a stop event must be refused
/// at once, even while earlier work still waits in the drain queue.
@usableFromInline enum SubjectFlags {
  @usableFromInline static let stopped: UInt32 = 1
  @usableFromInline static let disposed: UInt32 = 2

  /// Decides whether an event may enter the drain. A stop event claims `stopped`, so of
  /// several racing stop events exactly one is accepted.
  @inlinable @inline(__always)
  static func admit(_ flags: borrowing Atomic<UInt32>, stop: Bool) -> SubjectOutcome {
    var s = flags.load(ordering: .acquiring)
    if s & disposed != 0 { return .afterDispose }
    if s & stopped != 0 { return .ignoredAfterStop }
    if !stop { return .accepted }
    s = flags.bitwiseOr(stopped, ordering: .acquiringAndReleasing).oldValue
    if s & disposed != 0 { return .afterDispose }
    if s & stopped != 0 { return .ignoredAfterStop }
    return .accepted
  }

  /// Marks the subject disposed; true for the first call only.
  @inlinable
  static func markDisposed(_ flags: borrowing Atomic<UInt32>) -> Bool {
    flags.bitwiseOr(disposed, ordering: .acquiringAndReleasing).oldValue & disposed == 0
  }

  @inlinable
  static func isDisposed(_ flags: borrowing Atomic<UInt32>) -> Bool {
    flags.load(ordering: .acquiring) & disposed != 0
  }
}
