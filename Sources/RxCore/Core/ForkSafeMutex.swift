import CRxcCore

/// A `Mutex` for state a forked child goes on using (a run loop, a queue's pool, the timer
/// thread): a fork handler holds it across fork() (see fork_locks.c), so the child never
/// inherits it locked by a parent thread it does not have, nor its value half changed. The
/// handler takes every such lock, in no order, so: never take one while holding another,
/// and never let one go (the deinit unregisters it) while holding one; release what a
/// critical section drops (a replaced object) after unlocking.
@usableFromInline
struct ForkSafeMutex<Value>: ~Copyable, @unchecked Sendable {
  @usableFromInline let inner: Mutex<Value>

  @usableFromInline init(_ initial: Value) {
    inner = Mutex(initial)
    rxc_fork_lock_register(inner.mutex)
  }

  deinit { rxc_fork_lock_unregister(inner.mutex) }

  @inlinable @inline(__always)
  borrowing func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout Value) throws(E) -> Result
  ) throws(E) -> Result {
    try inner.withLock(body)
  }
}
