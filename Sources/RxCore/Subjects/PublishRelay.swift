/// A `PublishSubject` that only accepts elements and never terminates (RxSwift's
/// `PublishRelay`). It can still be disposed, after which late subscribers get
/// `RxError.disposed` as with subjects.
public final class PublishRelay<Element>: Observable<Element>, Cancelable {
  @usableFromInline let subject = PublishSubject<Element>()

  public override init() {
    super.init()
    Resources.increment()
  }

  deinit { Resources.decrement() }

  @inlinable @discardableResult
  public func accept(_ element: Element) -> SubjectOutcome { subject.emit(.next(element)) }

  public override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    subject.subscribe(observer)
  }

  public func dispose() { subject.dispose() }
  /// See `PublishSubject.keepAliveWhileDraining`.
  public func keepAliveWhileDraining() { subject.drain.keepAliveWhileDraining(self) }
  public var isDisposed: Bool { subject.isDisposed }
  public var hasObservers: Bool { subject.hasObservers }
}
