import Synchronization

/// Live-object accounting (RxSwift's `Resources.total`), always on: every sink, subscription,
/// subject and ABI object counts itself in and out, so tests can prove nothing leaks.
public enum Resources {
  @usableFromInline static let counter = Atomic<Int>(0)

  @inlinable public static var total: Int { counter.load(ordering: .relaxed) }
  @inlinable public static func increment() { counter.add(1, ordering: .relaxed) }
  @inlinable public static func decrement() { counter.subtract(1, ordering: .relaxed) }
}
