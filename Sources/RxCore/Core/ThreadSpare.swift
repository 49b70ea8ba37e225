import CRxcCore

/// This thread's spare object of one kind (`RXC_SPARE_*` in CRxcCore): whoever lets go of
/// the last reference to a torn-down object keeps it here, and the next one made on this
/// thread is that object, reset (no malloc, free, set-up or tear-down). The slots are C TLS
/// (initial-exec: one load); a thread-exit hook releases what is left in them.
@usableFromInline enum ThreadSpare {
  /// The spare of `kind`, which only ever holds `T`s.
  @inlinable @inline(__always)
  static func take<T: AnyObject>(_ kind: Int, as _: T.Type) -> T? {
    guard let p = rxc_core_spare_take(Int32(kind)) else { return nil }
    return Unmanaged<T>.fromOpaque(p).takeRetainedValue()
  }

  /// Keeps `object` (a reference the caller owns, moved here) as the spare of `kind`: false
  /// if that slot is taken (the caller still owns the reference then). `release` lets go of
  /// a spare the thread leaves behind when it exits.
  @inlinable @inline(__always)
  static func keep(_ object: UnsafeMutableRawPointer, _ kind: Int,
                   release: @convention(c) (UnsafeMutableRawPointer?) -> Void) -> Bool {
    let k = Int32(kind)
    if rxc_core_spare_put(k, object) != 0 { return true }
    return hookAndKeep(object, k, release)
  }

  /// `keep`'s first time on a thread: sets the thread's exit hook for `kind`, then keeps.
  @usableFromInline @inline(never)
  static func hookAndKeep(_ object: UnsafeMutableRawPointer, _ kind: Int32,
                          _ release: @convention(c) (UnsafeMutableRawPointer?) -> Void) -> Bool {
    rxc_core_spare_hooked(kind) == 0 && rxc_core_spare_hook(kind, release) != 0 && rxc_core_spare_put(kind, object) != 0
  }
}
