#if RXC_TSAN
import Glibc

/// Only in ThreadSanitizer builds (`-Xswiftc -DRXC_TSAN`, see mk/sanitize.mk): stands in for
/// Synchronization.Mutex inside this module. Mutex hands a contended lock over through the
/// kernel (futex), which TSan cannot see, so every contended critical section would be
/// reported as a race. TSan intercepts pthread_mutex_*, so with this lock it checks
/// everything else for real. Same API subset as Mutex; copyable values only.
@usableFromInline
struct Mutex<Value>: ~Copyable, @unchecked Sendable {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @usableFromInline let value: UnsafeMutablePointer<Value>

  @usableFromInline init(_ initial: Value) {
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
    value = .allocate(capacity: 1)
    value.initialize(to: initial)
  }

  deinit {
    value.deinitialize(count: 1)
    value.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  @inlinable
  borrowing func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout Value) throws(E) -> Result
  ) throws(E) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
  }
}
#endif
