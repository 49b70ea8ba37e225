/// Broadcasts each event to the observers subscribed at that moment (RxSwift's
/// `PublishSubject`). A late subscriber gets the stop event, or `RxError.disposed` once the
/// subject is disposed.
///
/// `on` may be called from several threads at once and from inside a callback of this
/// subject: see `SubjectBase` for how every call is serialized.
public final class PublishSubject<Element>: SubjectBase<Element>, SubjectType, ObserverType, Cancelable,
  SubjectHandling
{
  @inlinable public init() {
    super.init { unsafeDowncast($0, to: PublishSubject<Element>.self).handle($1) }
  }

  // The hooks of `SubjectHandling`, drain-owned.

  @inlinable public func takeNext(_ element: borrowing Element) { observers.deliverNext(element) }
  @inlinable public func takeNext(at element: UnsafePointer<Element>) { observers.deliverNext(at: element) }
  @inlinable public static var takeNextOnlyDelivers: Bool { true }

  @inlinable
  func add(_ subscription: SubjectMember<Element>, _ observer: Observer<Element>) {
    if !admit(subscription, observer) { return }
    if let stopEvent { return observer.on(stopEvent) }
    insert(observer, subscription)
  }

  @inlinable public func addOwnedNow(_ observer: Observer<Element>) { add(.owned(observer), observer) }

  /// Reached through the vtable (an operator subscribing to its source), this body runs
  /// unspecialized; for `Value` it goes on in the code specialized for it (see
  /// docs/SPECIALIZATION.md). A caller that names the type gets the check folded away.
  @inlinable public override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    if Element.self == Value.self {
      return unsafeDowncast(self, to: PublishSubject<Value>.self).attachNow(unsafeDowncast(observer, to: Observer<Value>.self))
    }
    return attachNow(observer)
  }
}
