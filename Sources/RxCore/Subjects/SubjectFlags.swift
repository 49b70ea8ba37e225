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

extension Drain {
  /// The `.next` path every subject shares: when the drain is idle, `deliver` runs inline on
  /// the caller's element (no `SubjectOp` or `Event` built, copied or destroyed); otherwise the
  /// element is queued as an event, for whoever holds the drain; when `unobserved` says it
  /// would reach nobody, neither. `deliver` runs only while the subject is neither stopped
  /// nor disposed. `handle` is the subject's drain handler
  /// (reach the subject through `Unmanaged._withUnsafeGuaranteedRef`: a strong or even an
  /// `unowned(unsafe)` capture costs a retain/release of it per call).
  @inlinable @inline(__always)
  func emitNext<Element>(
    _ element: borrowing Element, _ flags: borrowing Atomic<UInt32>, unobserved: () -> Bool,
    live: () -> Bool, deliver: (borrowing Element) -> Void, _ handle: (Item) -> Void
  ) -> SubjectOutcome where Item == SubjectOp<Element> {
    let s = flags.load(ordering: .acquiring)
    if s & SubjectFlags.disposed != 0 { return .afterDispose }
    if s & SubjectFlags.stopped != 0 { return .ignoredAfterStop }
    if unobserved() { return .accepted }  // the drain would take it and deliver it to nobody
    if enter(handle) {
      if live() { deliver(element) }
      exit(handle)
    } else {
      submitQueued(.event(.next(copy element)), handle)
    }
    return .accepted
  }

  /// `emitNext` of the element at `element`, which `deliver` reads in place: copied only into
  /// the queue. (Not the borrowing form through a pointer: measured, that costs the plain
  /// path a store and reload per event; nor the element passed on as `pointee`: that copies.)
  @inlinable @inline(__always)
  func emitNext<Element>(
    at element: UnsafePointer<Element>, _ flags: borrowing Atomic<UInt32>, unobserved: () -> Bool,
    live: () -> Bool, deliver: (UnsafePointer<Element>) -> Void, _ handle: (Item) -> Void
  ) -> SubjectOutcome where Item == SubjectOp<Element> {
    let s = flags.load(ordering: .acquiring)
    if s & SubjectFlags.disposed != 0 { return .afterDispose }
    if s & SubjectFlags.stopped != 0 { return .ignoredAfterStop }
    if unobserved() { return .accepted }
    if enter(handle) {
      if live() { deliver(element) }
      exit(handle)
    } else {
      submitQueued(.event(.next(element.pointee)), handle)
    }
    return .accepted
  }
}
