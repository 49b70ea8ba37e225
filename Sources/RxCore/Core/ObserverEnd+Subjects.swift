import CRxc
import CRxcCore

/// An `ObserverEnd` as a subject's member: listed without a subscription object (on a loan,
/// `SubjectLender`, or on a reference to the subject), and let go of by the subject. The
/// subject's notices tell an inline call of the end's own from a remote drain by
/// `rxc_member_call`, which the end's own calls mark (`attaching`, `detaching`).
extension ObserverEnd {
  /// This observer's mark for `rxc_member_call`.
  @inlinable
  public final func call(_ tag: UInt) -> UInt { UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque()) | tag }

  /// Runs `attach` (the subject's attach of this observer) marked as this observer's own.
  @inlinable @inline(__always)
  public final func attaching(_ attach: () -> Void) {
    let outer = rxc_member_call()
    rxc_set_member_call(call(Self.attaching))
    attach()
    rxc_set_member_call(outer)
  }

  /// Runs `detach` (the subject's detach of this observer) marked as this observer's own;
  /// true when the subject let go of it inline.
  @inlinable @inline(__always)
  public final func detaching(_ detach: () -> Void) -> Bool {
    let outer = rxc_member_call()
    rxc_set_member_call(call(Self.detaching))
    detach()
    let inline = rxc_member_call() == call(Self.detachedInline)
    rxc_set_member_call(outer)
    return inline
  }
}

extension ObserverEnd {
  /// The subject's notice that it let go (`Observer.detachedFromSubject`).
  @inlinable
  public func detachedFromSubjectNotice() {
    if rxc_member_call() == call(Self.detaching) {  // `cancel` settles it
      return rxc_set_member_call(call(Self.detachedInline))
    }
    settleUnlisted()
  }

  /// The subject let go: drops the reference the listing held, if nothing else needs it.
  /// May end this object's life.
  @inlinable
  public func settleUnlisted() {
    let old = state.set(.unlisted)
    if old.has(.listedRetained) || (old.cReferences == 0 && !keepsDeadTokens) {
      Self.retire(Unmanaged.passUnretained(self))
    }
  }
}
extension ObserverEnd {
  /// A subscription to a subject's observable: its token.
  @inlinable @inline(__always)
  public static func subscribe(_ callbacks: rx_observer, to subject: Unmanaged<SubjectObservable>)
    -> UnsafeMutablePointer<rx_disposable>
  {
    let o = make(callbacks)
    o._withUnsafeGuaranteedRef { observer in subject._withUnsafeGuaranteedRef { $0.attach(observer) } }
    return o.toOpaque().assumingMemoryBound(to: rx_disposable.self)
  }
}
