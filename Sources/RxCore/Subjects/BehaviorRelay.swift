/// A `BehaviorSubject` that only accepts elements and never terminates (RxSwift's
/// `BehaviorRelay`). It can still be disposed: late subscribers then get
/// `RxError.disposed`, and `currentValue()` throws it.
public final class BehaviorRelay<Element>: Observable<Element>, Cancelable {
  @usableFromInline let subject: BehaviorSubject<Element>

  @inlinable public init(value: Element) {
    subject = BehaviorSubject(value: value)
    super.init()
    Resources.increment()
  }

  deinit { Resources.decrement() }

  @inlinable @discardableResult
  public func accept(_ element: Element) -> SubjectOutcome { subject.emitNext(element) }

  /// The current value; `RxError.disposed` once disposed (a relay has no other error).
  public func currentValue() throws -> Element { try subject.value() }

  /// The current value (RxSwift's non-throwing `value`). Not for use after `dispose()`.
  public var value: Element {
    do { return try subject.value() } catch { preconditionFailure("BehaviorRelay.value read after dispose") }
  }

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
