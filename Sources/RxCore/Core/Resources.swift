import CRxResources

/// Live-object accounting (RxSwift's `Resources.total`), always on: every sink, subscription,
/// subject and ABI object counts itself in and out, so tests can prove nothing leaks.
/// Each thread counts in its own TLS counter (a plain load and store, no locked RMW; see
/// Sources/CRxResources); `total` sums them, and is exact once the threads are quiescent.
public enum Resources {
  @inlinable public static var total: Int { Int(rxc_resources_total()) }
  @inlinable public static func increment() { rxc_resources_add(1) }
  @inlinable public static func decrement() { rxc_resources_add(-1) }
}
