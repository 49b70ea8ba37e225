import Glibc
import Synchronization

/// A lock for critical sections of a few instructions (an append, a buffer swap, a value
/// copy): it spins briefly, then yields. Not `Mutex`: on Linux that is a PI futex, which hands
/// a contended lock to a sleeping waiter, so threads hammering one lock formed convoys
/// (microseconds per acquisition); here a running thread can always take it. Inline and
/// allocation-free. Never hold it around user code (it would spin, not deadlock-detect).
public struct SpinLock: ~Copyable {
  @usableFromInline let state = Atomic<Bool>(false)

  @inlinable public init() {}

  @inlinable @inline(__always)
  public func lock() {
    if !state.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
      lockSlow()
    }
  }

  @usableFromInline
  func lockSlow() {
    var spins = 0
    while true {
      if !state.load(ordering: .relaxed)
        && state.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
      {
        return
      }
      spins += 1
      // The holder needs a few instructions; if it is not done by now it was preempted.
      if spins > 32 { sched_yield() }
    }
  }

  @inlinable @inline(__always)
  public func unlock() { state.store(false, ordering: .releasing) }
}
