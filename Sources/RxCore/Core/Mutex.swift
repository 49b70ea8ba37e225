import Glibc

/// The core's lock, in place of Synchronization.Mutex (this module's `Mutex` shadows it):
/// a pthread mutex and the value it guards, in one allocation. Two reasons:
/// - fork: Synchronization.Mutex is a priority-inheritance futex holding its owner's thread
///   id, which the Swift runtime caches per thread; in a forked child the forking thread keeps
///   its parent's cached id, and the first contended unlock there traps ("Call to unlock Mutex
///   on a thread which hasn't acquired the lock"). glibc's mutex knows the child's ids.
/// - ThreadSanitizer intercepts pthread_mutex_*, so it sees contended hand-overs (through the
///   kernel, a futex hand-over looks like a race to it).
/// Same API subset as Synchronization.Mutex; copyable values only.
@usableFromInline
struct Mutex<Value>: ~Copyable, @unchecked Sendable {
  @usableFromInline let storage: UnsafeMutableRawPointer

  @usableFromInline static var valueOffset: Int {
    let a = MemoryLayout<Value>.alignment
    return (MemoryLayout<pthread_mutex_t>.stride + a - 1) & ~(a - 1)
  }

  @usableFromInline var mutex: UnsafeMutablePointer<pthread_mutex_t> {
    storage.assumingMemoryBound(to: pthread_mutex_t.self)
  }

  @usableFromInline var value: UnsafeMutablePointer<Value> {
    (storage + Self.valueOffset).assumingMemoryBound(to: Value.self)
  }

  @usableFromInline init(_ initial: Value) {
    storage = .allocate(
      byteCount: Self.valueOffset + MemoryLayout<Value>.size,
      alignment: Swift.max(MemoryLayout<pthread_mutex_t>.alignment, MemoryLayout<Value>.alignment))
    pthread_mutex_init(storage.assumingMemoryBound(to: pthread_mutex_t.self), nil)
    (storage + Self.valueOffset).initializeMemory(as: Value.self, to: initial)
  }

  deinit {
    value.deinitialize(count: 1)
    pthread_mutex_destroy(mutex)
    storage.deallocate()
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
