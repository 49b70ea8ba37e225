import CRxc
import CRxcCore
import RxCore
import Synchronization

/// How a C observer's subscription ends: a terminal event, a drop by its source, or a
/// dispose; and the hand-off that runs on_disposed exactly once, after every other callback
/// (the delivering side is in CObserver.swift).
extension CObserver {
  /// For a disposer that has set STOPPED: true if no thread but this one has delivered (see
  /// `claimDeliverer`).
  func disposerIsTheOnlyDeliverer() -> Bool {
    atomicMemoryFence(ordering: .sequentiallyConsistent)
    let d = delivery.load(ordering: .sequentiallyConsistent) & ~Self.inCallback
    return d == 0 || d == rxc_thread_self()
  }

  /// A deliverer that saw STOPPED: if a disposer left on_disposed to it (PENDING), run it.
  func leftAfterStop() {
    if state.set(.left).has(.pending) {
      claimFinal()
    }
  }

  /// A terminal event: the first stop wins; it then owes on_disposed itself.
  func stop(with event: Event<RxValue>) {
    // Serialized with the other deliveries, which leave the flag clear.
    let d = delivery.load(ordering: .relaxed)
    delivery.store(d | Self.inCallback, ordering: .relaxed)
    if state.set(.stopped).has(.stopped) {  // disposed or dropped first
      delivery.store(d, ordering: .releasing)
      return leftAfterStop()
    }
    switch event {
    case .next: break
    case .error(let error):
      let e = ErrorObject.from(error)
      callbacks.on_error?(callbacks.ctx, e.cPointer)
      withExtendedLifetime(e) {}
    case .completed:
      callbacks.on_completed?(callbacks.ctx)
    }
    delivery.store(d, ordering: .releasing)
    claimFinal()
  }

  /// Runs on_disposed unless someone already did.
  func claimFinal() {
    if !state.set(.final).has(.final) {
      runOnDisposed()
    }
  }

  /// After this thread set STOPPED: run on_disposed now, or leave it to a deliverer that is
  /// inside a callback on another thread. Only a PENDING hand-off lets a deliverer claim
  /// on_disposed too, so the other two ways run it without claiming FINAL.
  /// `detachedInline`: the subject let go of this observer inline, on this thread.
  @inline(__always)
  func finishAfterStop(detachedInline: Bool) {
    if detachedInline || state.load().has(.unlisted) { return runOnDisposed() }
    finishAfterStopElsewhere()
  }

  /// `finishAfterStop` when a deliverer may be inside a callback on another thread. A
  /// disposer that is the only thread ever to deliver (its subscription through operators,
  /// say, fed on this thread) skips the barrier: `delivery` is then its own.
  @inline(never)
  func finishAfterStopElsewhere() {
    if !disposerIsTheOnlyDeliverer() { AsymmetricFence.heavySide() }
    if delivery.load(ordering: .acquiring) & Self.inCallback != 0 {
      if state.set(.pending).has(.left) {
        claimFinal()
      }
    } else {
      runOnDisposed()
    }
  }

  func runOnDisposed() { callbacks.on_disposed?(callbacks.ctx) }

  var isDisposed: Bool { state.load().has([.stopped, .disposed]) }

  /// Cancels the subscription: upstream first (so taps made by rx_do see the dispose, and
  /// run their on_disposed, before this observer's), then this observer. Idempotent.
  func dispose() {
    if cancel(after: state.set([.stopped, .disposed])) {
      settleUnlisted()
    }
  }

  /// rx_dispose on a token: `dispose`, then `dropCReference`, with one RMW when the caller's
  /// reference is the only one (then no other thread can drop one while `cancel` runs) and
  /// the subject, if any, lets go inline. True when the caller must now release the Swift
  /// reference that backed the C references.
  @inline(__always)
  func disposeAndDropCReference() -> Bool {
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
  @inline(__always)
  func cancel(after old: TokenState) -> Bool {
    if old.has(.disposed) { return false }
    var u = Upstream.none
    swap(&u, &upstream)  // takes the reference without a retain/release pair
    var inline = false
    switch consume u {
    case .none: break
    case .disposable(let d):
      d.dispose()
      Disposables.recycle(d)
    case .subject(let s):
      let outer = rxc_member_call()
      rxc_set_member_call(call(Self.detaching))
      s.detachOwned(self)
      inline = rxc_member_call() == call(Self.detachedInline)
      rxc_set_member_call(outer)
    case .lent(let lender):
      let outer = rxc_member_call()
      rxc_set_member_call(call(Self.detaching))
      lender._withUnsafeGuaranteedRef { $0.detachOwned(self) }
      inline = rxc_member_call() == call(Self.detachedInline)
      rxc_set_member_call(outer)
      Self.giveBack(lender)
    }
    if !old.has(.stopped) { finishAfterStop(detachedInline: inline) }
    return inline
  }
}
