/// What a one-slot disposable holds and whether it is disposed, guarded by its owner's lock.
/// A struct the owner calls between `lock()` and `unlock()`: passing the owner's stored
/// properties `inout` to a locking helper would begin their access before the lock is taken
/// (a data race by Swift's rules, which the thread sanitizer reports).
struct DisposableSlot {
  /// First: a `Bool` the owner stores after this lands in the slot's tail padding.
  var held: (any Disposable)?
  var disposed = false

  /// Marks it disposed and takes what it holds, for the caller to dispose outside the lock;
  /// nil if it was disposed already (or held nothing).
  @inline(__always)
  mutating func disposeOnce() -> (any Disposable)? {
    if disposed { return nil }
    disposed = true
    return held.take()
  }
}
