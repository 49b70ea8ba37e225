import CRxcCore

/// What a `weak` reference gives, without one: a strong reference to the object while it
/// lives, nil once it is deinitializing. It holds the object's unowned count, which keeps
/// the memory (not the life), so the try-retain is always on valid memory.
///
/// Why not `weak`: the first weak reference to an object gives it a side table, and every
/// retain and release of that object then takes the runtime's slow path (a subject referred
/// to weakly by its subscriptions paid it on every subscribe and dispose); LeakSanitizer
/// also cannot trace a side table to its object.
@usableFromInline struct UnownedRef<Object: AnyObject>: ~Copyable {
  @usableFromInline let pointer: UnsafeMutableRawPointer

  @inlinable init(_ object: Object) {
    pointer = Unmanaged.passUnretained(object).toOpaque()
    _ = swift_unownedRetain(pointer)
  }

  deinit { swift_unownedRelease(pointer) }

  /// The object, retained, unless it is deinitializing or gone.
  @inlinable func load() -> Object? {
    guard swift_tryRetain(pointer) != nil else { return nil }
    return Unmanaged<Object>.fromOpaque(pointer).takeRetainedValue()
  }
}
