/// A `BehaviorSubject` that only accepts elements and never terminates (RxSwift's
/// `BehaviorRelay`; see `Relay`). Once disposed, `currentValue()` throws `RxError.disposed`.
public final class BehaviorRelay<Element>: Relay<BehaviorSubject<Element>> {
  @inlinable public init(value: Element) { super.init(BehaviorSubject(value: value)) }

  /// The current value; `RxError.disposed` once disposed (a relay has no other error).
  public func currentValue() throws -> Element { try subject.value() }

  /// The current value (RxSwift's non-throwing `value`). Not for use after `dispose()`.
  public var value: Element {
    do { return try subject.value() } catch { preconditionFailure("BehaviorRelay.value read after dispose") }
  }
}
