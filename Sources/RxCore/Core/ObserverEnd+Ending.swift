import CRxcCore
import Synchronization

/// How an `ObserverEnd`'s subscription ends: a terminal event, a drop by its source, or a
/// dispose; and the hand-off that makes the disposed call exactly once, after every other
/// call (the delivering side is in ObserverEnd.swift).
extension ObserverEnd {
  /// A deliverer that saw STOPPED: if a disposer left the disposed call to it (PENDING),
  /// make it.
  @inlinable
  public func leftAfterStop() {
    if state.set(.left).has(.pending) {
      claimFinal()
    }
  }

  /// A terminal event: the first stop wins; it then owes the disposed call itself.
  @inlinable
  public func stop(with event: Event<Value>) {
    // Serialized with the other deliveries, which leave the flag clear.
    let d = delivery.load(ordering: .relaxed)
    delivery.store(d | Self.inCallback, ordering: .relaxed)
    if state.set(.stopped).has(.stopped) {  // disposed or dropped first
      delivery.store(d, ordering: .releasing)
      return leftAfterStop()
    }
    callTerminal(event)
    delivery.store(d, ordering: .releasing)
    claimFinal()
  }

  /// Makes the disposed call unless someone already did.
  @inlinable
  public func claimFinal() {
    if !state.set(.final).has(.final) {
      runOnDisposed()
    }
  }

  /// After this thread set STOPPED: make the disposed call now, or leave it to a deliverer
  /// that is inside a call on another thread. Only a PENDING hand-off lets a deliverer claim
  /// it too, so the other two ways make it without claiming FINAL.
  /// `detachedInline`: the subject let go of this observer inline, on this thread.
  @inlinable @inline(__always)
  public func finishAfterStop(detachedInline: Bool) {
    if detachedInline || state.load().has(.unlisted) { return runOnDisposed() }
    finishAfterStopElsewhere()
  }

  /// `finishAfterStop` when a deliverer may be inside a call on another thread. A disposer
  /// that is the only thread ever to deliver (its subscription through operators, say, fed
  /// on this thread) skips the barrier: `delivery` is then its own.
  @inlinable @inline(never)
  public func finishAfterStopElsewhere() {
    if !disposerIsTheOnlyDeliverer() { AsymmetricFence.heavySide() }
    if delivery.load(ordering: .acquiring) & Self.inCallback != 0 {
      if state.set(.pending).has(.left) {
        claimFinal()
      }
    } else {
      runOnDisposed()
    }
  }

  /// The source dropped this observer (a disposed subject), or a tap's subscription ended.
  @inlinable
  public func droppedBySource() {
    if !state.set(.stopped).has(.stopped) {
      finishAfterStop(detachedInline: rxc_member_call() == call(Self.detachedInline))
    }
  }

  @inlinable public var isDisposed: Bool { state.load().has([.stopped, .disposed]) }

  /// Cancels the subscription: upstream first (so taps made by rx_do see the dispose, and
  /// make their disposed call, before this observer's), then this observer. Idempotent.
  @inlinable
  public func dispose() {
    if cancel(after: state.set([.stopped, .disposed])) {
      settleUnlisted()
    }
  }

  /// A dispose of the token: `dispose`, then `dropCReference`, with one RMW when the
  /// caller's reference is the only one (then no other thread can drop one while `cancel`
  /// runs) and the subject, if any, lets go inline. True when the caller must now release
  /// the Swift reference that backed the counted references.
  @inlinable @inline(__always)
  public func disposeAndDropCReference() -> Bool {
    var early = false
    let old = state.update { old in
      early = old.hasOneCReference && (!old.isListed || old.has(.unlisted))
      let new = old.adding([.stopped, .disposed])
      return early ? new.droppingOneCReference() : new
    }
    let inline = cancel(after: old)
    if inline && old.hasOneCReference && old.has(.listed) {
      // The subject let go on this thread, inside `cancel`, and no other reference exists:
      // nothing else touches `state` any more.
      state.storeUnshared(state.loadUnshared().adding(.unlisted).droppingOneCReference())
      return lastCReferenceDropped()
    }
    // (A queued attach may have listed it after the RMW above: `early` says nothing of that.)
    if inline { settleUnlisted() }
    return early ? lastCReferenceDropped() : dropCReference()
  }

  /// The rest of `dispose`, after the RMW that set STOPPED and DISPOSED returned `old`. True
  /// when the subject let go of this observer inline, leaving `settleUnlisted` to the caller.
  @inlinable @inline(__always)
  public func cancel(after old: TokenState) -> Bool {
    if old.has(.disposed) { return false }
    let inline = cancelUpstream()
    if !old.has(.stopped) { finishAfterStop(detachedInline: inline) }
    return inline
  }
}
