/// A `ReplaySubject` that only accepts elements and never terminates (RxSwift's
/// `ReplayRelay`; see `Relay`).
public final class ReplayRelay<Element>: Relay<ReplaySubject<Element>> {
  /// Keeps the last `bufferSize` (>= 1) elements.
  @inlinable public init(bufferSize: Int) { super.init(ReplaySubject(bufferSize: bufferSize)) }

  /// Keeps every element.
  @inlinable public static func createUnbounded() -> ReplayRelay { ReplayRelay(bufferSize: .max) }
}
