/// A `PublishSubject` that only accepts elements and never terminates (RxSwift's
/// `PublishRelay`). It can still be disposed, after which late subscribers get
/// `RxError.disposed` as with subjects.
public final class PublishRelay<Element>: Observable<Element>, Cancelable {
  @usableFromInline let subject: PublishSubject<Element>

  @inlinable public override init() {
    subject = PublishSubject()
    super.init()
    Resources.increment()
  }

  deinit { Resources.decrement() }

  @inlinable @discardableResult
  public func accept(_ element: Element) -> SubjectOutcome { subject.emitNext(element) }

  public override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    subject.attach(observer)
  }

  /// See `PublishSubject.attach`.
  @inlinable
  public func attach(_ observer: Observer<Element>) -> SubjectSubscription { subject.attach(observer) }
  @inlinable public func attachOwned(_ observer: Observer<Element>) { subject.attachOwned(observer) }
  @inlinable public func detachOwned(_ observer: Observer<Element>) { subject.detachOwned(observer) }

  @inlinable public func dispose() { subject.dispose() }
  /// See `PublishSubject.keepAliveWhileDraining`.
  public func keepAliveWhileDraining() { subject.drain.keepAliveWhileDraining(self) }
  public var isDisposed: Bool { subject.isDisposed }
  public var hasObservers: Bool { subject.hasObservers }
}
