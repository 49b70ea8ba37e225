/// How an observer belongs to a subject.
/// - `subscription`: the usual way (`attach`): a separate `SubjectSubscription` is the
///   disposable, carries the slot index and the disposed flag. Not retained by the member:
///   a call that adds or removes inline keeps it alive for the call, and a queued
///   `SubjectOp` holds a reference of its own (`queued`, released once handled).
/// - `fresh`: a `subscription` that nothing else can reach yet (made by this call, not yet
///   returned or queued: `attachNow`'s inline add), so the list takes its reference without
///   an atomic operation.
/// - `owned`: for observers that keep that bookkeeping themselves (`attachOwned`; the C
///   layer's observer, which is also the subscription token): no second object per
///   subscription, and the observer filters its own events once disposed.
@usableFromInline enum SubjectMember<Element> {
  case subscription(Unmanaged<SubjectSubscription>)
  case fresh(Unmanaged<SubjectSubscription>)
  case owned(Observer<Element>)

  /// A member for an op that waits in the drain: the subscription retained for it.
  @inlinable static func queued(_ s: SubjectSubscription) -> SubjectMember {
    .subscription(Unmanaged.passRetained(s))
  }

  /// A member for a call that runs now, while the caller holds `s`.
  @inlinable static func inline(_ s: SubjectSubscription) -> SubjectMember { .subscription(Unmanaged.passUnretained(s)) }

  /// The end of a queued op's member (`queued`).
  @inlinable func handled() {
    if case .subscription(let s) = self { s.release() }
  }

  /// True once the member wants no more events (skip it, stop replaying to it).
  @inlinable var isDisposed: Bool {
    switch self {
    case .subscription(let s), .fresh(let s): return s._withUnsafeGuaranteedRef { $0.isDisposed }
    case .owned(let o): return o.wantsNoMoreEvents
    }
  }
}
