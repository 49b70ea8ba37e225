/// What an `ObserverEnd`'s token is subscribed to, and how it lets go: a disposable, or a
/// subject it is an owned member of (no subscription object), on a loan (`SubjectLender`)
/// or on a reference to the subject.
extension ObserverEnd {
  /// The upstream subscription this token disposes. Called once, before the token exists.
  public final func attach(_ upstream: any Disposable) { setUpstream { .disposable(upstream) } }

  /// Sets `upstream`, which is empty (a new token, or a spare: see `emptyUpstream`), without
  /// the outlined destroy of an old value.
  @inlinable @inline(__always)
  public final func setUpstream(_ u: () -> Upstream) {
    if case .none = upstream {} else { assertionFailure("a token's upstream is set once") }
    withUnsafeMutablePointer(to: &upstream) { $0.initialize(to: u()) }
  }

  /// Subscribes to a subject as an owned member, on a loan that `lender` made for this
  /// thread: no subscription object besides this one, and no reference count on the subject.
  @inlinable @inline(__always)
  public final func attach(lentBy lender: SubjectObservable) {
    // Set first: the loan must end even if the attach is queued and this token never listed.
    setUpstream { .lent(Unmanaged.passUnretained(lender)) }
    attaching { lender.attachOwned(self) }
  }

  /// Subscribes to a subject as an owned member: no subscription object besides this one.
  /// Borrows `subject` (a caller's `let`): its one retain is the one `upstream` keeps.
  public final func attach(to subject: borrowing any MemberSubject) {
    // No dispose can come before the token exists, so `upstream` may be set after.
    attaching { subject.attachOwned(self) }
    setUpstream { .subject(copy subject) }
  }

  /// Ends the loan of a token whose subscription ended without `cancel` (it was dropped or
  /// ran to its end, and was then released): it touches its subject no more.
  public final func endLoan() {
    guard case .lent(let lender) = upstream else { return }
    upstream = .none
    SubjectObservable.giveBack(lender)
  }

  /// Empties `upstream` of a token whose life ended: a loan still out ends, a reference
  /// still held goes (as deinit would let go of it).
  @inlinable @inline(__always)
  public final func emptyUpstream() {
    if case .none = upstream { return }
    emptyUpstreamNow()
  }

  @inline(never) @usableFromInline
  final func emptyUpstreamNow() {
    endLoan()
    upstream = .none
  }

  /// Takes what the token is subscribed to and cancels it (a subject inside `detaching`).
  /// True when the subject let go of this observer inline.
  @inlinable @inline(__always)
  public final func cancelUpstream() -> Bool {
    var u = Upstream.none
    swap(&u, &upstream)  // takes the reference without a retain/release pair
    var inline = false
    switch consume u {
    case .none: break
    case .disposable(let d):
      d.dispose()
      Disposables.recycle(d)
    case .subject(let s):
      inline = detaching { s.detachOwned(self) }
    case .lent(let lender):
      inline = detaching { lender._withUnsafeGuaranteedRef { $0.detachOwned(self) } }
      SubjectObservable.giveBack(lender)
    }
    return inline
  }
}
