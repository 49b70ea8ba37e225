import CRxcCore
import Synchronization

/// The counted references to an `ObserverEnd`'s token (the C references: taken by
/// subscribe, dropped by dispose and release), and when the Swift reference behind them
/// goes.
extension ObserverEnd {
  @inlinable
  public func retainC() -> Bool { state.addCReferenceIfAlive() }

  /// Drops one counted reference; true when the caller must now release the Swift reference
  /// that backed them (the last one went, no subject listing waits on it, and the token is
  /// not kept poisoned).
  @inlinable
  public func dropCReference() -> Bool {
    // The caller's reference is the only one, no subject lists it and nothing else holds
    // the object (e.g. a token that ended inside rx_subscribe, W5): no other thread can
    // touch `state`, so a plain store does.
    let s = state.load()
    if s.hasOneCReference && !s.isListed
      && swift_isUniquelyReferenced_nonNull_native(Unmanaged.passUnretained(self).toOpaque())
      && mayReuseUniqueObject()
    {
      state.storeUnshared(s.droppingOneCReference())
      return lastCReferenceDropped()
    }
    // Once the count reaches zero, a subject that lists this observer may let go of it on
    // its own thread at any moment (`waitsForSubject`): this thread holds a reference of its
    // own until it has marked the handle dead.
    let me = Unmanaged.passUnretained(self).retain()
    defer { me.release() }
    let old = state.dropOneCReference()
    return old.hasOneCReference && lastCReferenceDropped() && !old.waitsForSubject
  }

  /// `dropCReference` when the caller's reference is the only one of any kind and no subject
  /// lists the token (a token that ended inside rx_subscribe, W5): nothing else can touch it,
  /// so plain stores do. False, and nothing done, otherwise. The caller then marks it dead.
  @inlinable @inline(__always)
  public func dropOnlyReference() -> Bool {
    let s = state.load()
    guard s.hasOneCReference && !s.isListed
      && swift_isUniquelyReferenced_nonNull_native(Unmanaged.passUnretained(self).toOpaque())
      && mayReuseUniqueObject() && !keepsDeadTokens
    else { return false }
    state.storeUnshared(s.droppingOneCReference())
    return true
  }
}
