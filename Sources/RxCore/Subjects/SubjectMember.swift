/// How an observer belongs to a subject.
/// - `subscription`: the usual way (`attach`): a separate `SubjectSubscription` is the
///   disposable, carries the slot index and the disposed flag.
/// - `owned`: for observers that keep that bookkeeping themselves (`attachOwned`; the C
///   layer's observer, which is also the subscription token): no second object per
///   subscription, and the observer filters its own events once disposed.
@usableFromInline enum SubjectMember<Element> {
  case subscription(SubjectSubscription)
  case owned(Observer<Element>)

  /// True once the member wants no more events (skip it, stop replaying to it).
  @inlinable var isDisposed: Bool {
    switch self {
    case .subscription(let s): return s.isDisposed
    case .owned(let o): return o.wantsNoMoreEvents
    }
  }
}
