import CRxc
import CRxcCore

/// Each thread keeps the last token it let go of for its next subscription (as it keeps
/// observable handles, see ObservableHandle.retire): a subscribe + dispose then skips a
/// malloc, a free and the object's set-up and tear-down. The spare is empty (its callbacks'
/// on_disposed has run; it holds no upstream), dead (dead magic, not counted by Resources)
/// and owned by the thread's slot; the thread's exit releases it. Never under RXC_DEBUG,
/// where released tokens stay poisoned (they never get here).
extension ObserverEnd {
  /// A reserved `slot` value: this object is a spare, already counted out of Resources.
  @inlinable public static var spareSlot: Int32 { Int32.min }

  /// Releases the Swift reference that backed the token's C references (or a listing's):
  /// kept as this thread's spare if nothing else holds the object and the slot is free.
  @inlinable @inline(__always)
  public static func retire(_ o: Unmanaged<ObserverEnd>) {
    var obs = o.takeRetainedValue()
    guard isKnownUniquelyReferenced(&obs), mayReuseUniqueObject() else { return }
    obs.emptyUpstream()
    Resources.decrement()
    obs.slot = spareSlot
    let p = Unmanaged.passRetained(consume obs).toOpaque()
    if !keepAsSpare(p, { rxc_spare_put_token($0) }) { Unmanaged<ObserverEnd>.fromOpaque(p).release() }
  }

  /// `retire` for a token known to have no other reference (`dropOnlyReference`).
  @inlinable @inline(__always)
  public static func retireUnique(_ o: Unmanaged<ObserverEnd>) {
    o._withUnsafeGuaranteedRef {
      $0.emptyUpstream()
      $0.slot = spareSlot
    }
    Resources.decrement()
    if !keepAsSpare(o.toOpaque(), { rxc_spare_put_token($0) }) { o.release() }
  }

  /// A spare made live again with one C reference, for `callbacks`.
  @usableFromInline func revive(_ callbacks: rx_observer) {
    Resources.increment()
    revive(magic: AbiObject.liveMagic)
    self.callbacks = callbacks
  }
}
