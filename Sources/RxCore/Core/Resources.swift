import Synchronization

/// Live-object accounting (RxSwift's `Resources.total`), always on: every sink, subscription,
/// subject and ABI object counts itself in and out, so tests can prove nothing leaks.
public enum Resources {
  @usableFromInline static let counter = Atomic<Int>(0)

  // Wrapping: one `lock xadd` (the checked forms are a CAS loop with an overflow trap).
  @inlinable public static var total: Int { counter.load(ordering: .relaxed) }
  @inlinable public static func increment() { counter.wrappingAdd(1, ordering: .relaxed) }
  @inlinable public static func decrement() { counter.wrappingSubtract(1, ordering: .relaxed) }
}
