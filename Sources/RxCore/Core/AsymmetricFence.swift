import CRxcCore

/// The asymmetric fence: a store-then-load handshake between a hot side that runs often on
/// one thread and a rare side on any other, where only the rare side pays. The hot side
/// stores, calls `lightSide()` (no instruction), then loads; the rare side stores, calls
/// `heavySide()` (every thread of the process executes a full fence before it returns),
/// then loads. Then at least one of the two loads sees the other side's store, as with a
/// full fence on both sides. docs/CONCURRENCY.md gives the argument and lists the users.
public enum AsymmetricFence {
  /// The hot side's fence: orders the compiler only, where a heavy side exists (always on
  /// x86-64); a full fence elsewhere when none does.
  @inlinable @inline(__always)
  public static func lightSide() {
    #if arch(x86_64)
    rxc_compiler_fence()
    #else
    if _fastPath(heavySideExists) { rxc_compiler_fence() } else { rxc_full_fence() }
    #endif
  }

  /// The rare side's fence: when it returns, every thread of the process has executed a full
  /// fence (membarrier, or on x86-64 a TLB-shootdown interrupt).
  @inlinable
  public static func heavySide() { rxc_process_barrier() }

  /// False where the process barrier is missing (no membarrier, not x86-64): `heavySide()`
  /// is then a local fence and `lightSide()` a full one. Protocols with a cheaper
  /// alternative to the light side (a drain's shared mode) switch to it.
  @inlinable
  public static var heavySideExists: Bool { rxc_process_barrier_works() != 0 }
}
