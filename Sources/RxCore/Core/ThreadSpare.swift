import CRxcCore
import Synchronization

/// This thread's spare object of one kind (`RXC_SPARE_*` in CRxcCore): whoever lets go of
/// the last reference to a torn-down object keeps it here, and the next one made on this
/// thread is that object, reset (no malloc, free, set-up or tear-down). The slots are C TLS
/// (initial-exec: one load); a thread-exit hook releases what is left in them.
@usableFromInline enum ThreadSpare {
  /// True when `object` may be kept as a spare: the caller's is its only reference, strong,
  /// unowned or weak (a reused object must not be what an old unowned or weak reference
  /// still reaches), and it is not being deinitialized. Then no other thread can reach it;
  /// the acquire fence pairs the plain check with the release of whoever dropped the last
  /// other reference. Always false under ThreadSanitizer (`RXC_TSAN`), which cannot see the
  /// Swift runtime's reference counts and would take every hand-over for a race.
  ///
  /// Reads the object's inline reference counts (64-bit layout of the Swift runtime this
  /// library links): bit 0 "pure Swift dealloc", bits 1...31 the unowned count (1 while
  /// strong references exist), bit 32 deinitializing, bits 33...62 the strong count less one,
  /// bit 63 a side table (what a weak reference makes). `ThreadSpareTests` checks it.
  @inlinable @inline(__always)
  static func isSolelyOwned<T: AnyObject>(_ object: T) -> Bool {
    #if RXC_TSAN
      return false
    #else
      let bits = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()).load(fromByteOffset: 8, as: UInt64.self)
      guard bits & ~1 == 1 << 1 else { return false }
      atomicMemoryFence(ordering: .acquiring)
      return true
    #endif
  }

  /// True when something refers to `object` weakly (it has a side table: bit 63 of the inline
  /// counts read by `isSolelyOwned`). Such an object is not parked: a weak reference must see
  /// it go when its last strong reference does.
  @inlinable @inline(__always)
  static func hasSideTable<T: AnyObject>(_ object: T) -> Bool {
    UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()).load(fromByteOffset: 8, as: UInt64.self) >> 63 != 0
  }

  /// Whether `object` is of the class kept under `kind` (exactly; noted by `noteClass`).
  @inlinable @inline(__always)
  static func isKind(_ kind: Int, _ object: AnyObject) -> Bool {
    rxc_core_spare_is(Int32(kind), Unmanaged.passUnretained(object).toOpaque()) != 0
  }

  /// Notes `object`'s class as the one kept under `kind`: for the `make` that allocates.
  @inlinable @inline(__always)
  static func noteClass(_ kind: Int, _ object: AnyObject) {
    rxc_core_spare_note_class(Int32(kind), Unmanaged.passUnretained(object).toOpaque())
  }

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

  /// Keeps `object` (moved here) as the spare of `kind`, or releases it if that slot is taken.
  @inlinable @inline(__always)
  static func keepOrRelease<T: AnyObject>(_ object: consuming T, _ kind: Int) {
    let p = Unmanaged.passRetained(consume object).toOpaque()
    if !keep(p, kind, release: { Unmanaged<AnyObject>.fromOpaque($0!).release() }) {
      Unmanaged<T>.fromOpaque(p).release()
    }
  }

  /// `keep`'s first time on a thread: sets the thread's exit hook for `kind`, then keeps.
  @usableFromInline @inline(never)
  static func hookAndKeep(_ object: UnsafeMutableRawPointer, _ kind: Int32,
                          _ release: @convention(c) (UnsafeMutableRawPointer?) -> Void) -> Bool {
    rxc_core_spare_hooked(kind) == 0 && rxc_core_spare_hook(kind, release) != 0 && rxc_core_spare_put(kind, object) != 0
  }
}

/// Call right after Swift's uniqueness test said the caller holds the only reference to an
/// object it wants to refill for reuse (or change with plain stores): true if it may. The
/// test is a plain load; the acquire fence pairs it with the release of whoever dropped the
/// last other reference. Always false under ThreadSanitizer (`RXC_TSAN`), which cannot see the
/// Swift runtime's reference counting and would take every such hand-over for a race; those
/// builds take the ordinary paths.
@inlinable @inline(__always)
@_spi(RxC) public func mayReuseUniqueObject() -> Bool {
  #if RXC_TSAN
    return false
  #else
    atomicMemoryFence(ordering: .acquiring)
    return true
  #endif
}
