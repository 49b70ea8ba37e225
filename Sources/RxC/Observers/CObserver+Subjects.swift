import CRxc
@_spi(RxC) import RxCore

/// A C observer as a subject's member (see `ObserverEnd+Subjects`): listed without a
/// subscription object, on a loan (`SubjectLender`) or on a reference to the subject.
extension CObserver {
  /// Subscribes to a subject as an owned member, on a loan that `lender` made for this
  /// thread: no subscription object besides this one, and no reference count on the subject.
  @inline(__always)
  func attach(lentBy lender: SubjectObservable) {
    // Set first: the loan must end even if the attach is queued and this token never listed.
    setUpstream { .lent(Unmanaged.passUnretained(lender)) }
    attaching { lender.attachOwned(self) }
  }

  /// Ends the loan of a token whose subscription ended without `cancel` (it was dropped or
  /// ran to its end, and was then released): it touches its subject no more.
  func endLoan() {
    guard case .lent(let lender) = upstream else { return }
    upstream = .none
    Self.giveBack(lender)
  }

  /// Empties `upstream` of a token whose life ended: a loan still out ends, a reference
  /// still held goes (as deinit would let go of it).
  @inline(__always)
  func emptyUpstream() {
    if case .none = upstream { return }
    emptyUpstreamNow()
  }

  @inline(never)
  func emptyUpstreamNow() {
    endLoan()
    upstream = .none
  }

  /// The last thing a token does with its subject (this may free it).
  @inline(__always)
  static func giveBack(_ lender: Unmanaged<SubjectObservable>) {
    if lender._withUnsafeGuaranteedRef({ $0.giveBack() }) { lender.release() }
  }

  /// Subscribes to a subject as an owned member: no subscription object besides this one.
  /// Borrows `subject` (a caller's `let`): its one retain is the one `upstream` keeps.
  func attach(to subject: borrowing any AbiSubject) {
    // No dispose can come before the token exists, so `upstream` may be set after.
    attaching { subject.attachOwned(self) }
    setUpstream { .subject(copy subject) }
  }

  /// A subscription to a subject's observable: its token.
  @inline(__always)
  static func subscribe(_ callbacks: rx_observer, to subject: Unmanaged<SubjectObservable>)
    -> UnsafeMutablePointer<rx_disposable>
  {
    let o = make(callbacks)
    o._withUnsafeGuaranteedRef { observer in subject._withUnsafeGuaranteedRef { $0.attach(observer) } }
    return o.toOpaque().assumingMemoryBound(to: rx_disposable.self)
  }
}
