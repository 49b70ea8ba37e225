import CRxc
import CRxcCore
import RxCore
import Synchronization

/// A C observer as a subject's member: listed without a subscription object, on a loan
/// (`SubjectLender`) or on a reference to the subject, and let go of by the subject.
extension CObserver {
  /// The subject let go: drops the reference the listing held, if nothing else needs it.
  /// May end this object's life.
  func settleUnlisted() {
    let old = state.set(.unlisted)
    if old.has(.listedRetained) || (old.cReferences == 0 && !debugPoison) {
      Self.retire(Unmanaged.passUnretained(self))
    }
  }

  /// This observer's mark for `rxc_member_call`.
  func call(_ tag: UInt) -> UInt { UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque()) | tag }

  /// Subscribes to a subject as an owned member, on a loan that `lender` made for this
  /// thread: no subscription object besides this one, and no reference count on the subject.
  @inline(__always)
  func attach(lentBy lender: SubjectObservable) {
    // Set first: the loan must end even if the attach is queued and this token never listed.
    setUpstream { .lent(Unmanaged.passUnretained(lender)) }
    let outer = rxc_member_call()
    rxc_set_member_call(call(Self.attaching))
    lender.attachOwned(self)
    rxc_set_member_call(outer)
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
    let outer = rxc_member_call()
    rxc_set_member_call(call(Self.attaching))
    subject.attachOwned(self)
    rxc_set_member_call(outer)
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
