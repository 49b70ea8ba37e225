import CRxc
import Synchronization

/// Keeps `object` in one of this thread's spare slots (Sources/CRxc/spare_handles.c) with
/// `put`, setting the thread-exit hook that releases spares first if it is not set yet.
/// False when it cannot: the caller releases the object instead.
@inline(__always)
func keepAsSpare(_ object: UnsafeMutableRawPointer, _ put: (UnsafeMutableRawPointer?) -> Bool) -> Bool {
  if put(object) { return true }
  return !rxc_spare_hooked() && rxc_spare_hook({ Unmanaged<AnyObject>.fromOpaque($0!).release() }) && put(object)
}

/// Call right after Swift's uniqueness test said the caller holds the only reference to an
/// object it wants to refill for reuse (or change with plain stores): true if it may. The
/// test is a plain load; the acquire fence pairs it with the release of whoever dropped the
/// last other reference. Always false under ThreadSanitizer (`RXC_TSAN`), which cannot see the
/// Swift runtime's reference counting and would take every such hand-over for a race; those
/// builds take the ordinary paths.
@inline(__always)
func mayReuseUniqueObject() -> Bool {
  #if RXC_TSAN
    return false
  #else
    atomicMemoryFence(ordering: .acquiring)
    return true
  #endif
}
