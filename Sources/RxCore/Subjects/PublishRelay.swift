/// A `PublishSubject` that only accepts elements and never terminates (RxSwift's
/// `PublishRelay`; see `Relay`).
public final class PublishRelay<Element>: Relay<PublishSubject<Element>> {
  @inlinable public init() { super.init(PublishSubject()) }
}
