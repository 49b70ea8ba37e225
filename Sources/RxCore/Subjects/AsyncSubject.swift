/// Emits only the last element, and only when the source completes (RxSwift's
/// `AsyncSubject`): observers get that element then `completed`, or just `completed` if
/// there was none, or the error. Late subscribers get the same; after dispose,
/// `RxError.disposed`. Serialized like every subject (see `SubjectBase`).
public final class AsyncSubject<Element>: SubjectBase<Element>, SubjectType, ObserverType, Cancelable,
  SubjectHandling
{
  // Drain-owned, like the hooks.
  @usableFromInline var last: Element?

  @inlinable public init() {
    super.init { unsafeDowncast($0, to: AsyncSubject<Element>.self).handle($1) }
  }

  // The hooks of `SubjectHandling`, drain-owned.

  @inlinable public func takeNext(_ element: borrowing Element) { last = copy element }
  @inlinable public func takeNext(at element: UnsafePointer<Element>) { last = element.pointee }

  @inlinable
  func takeStop(_ event: Event<Element>) {
    // As RxSwift: the value to everyone, then completed to everyone.
    if case .completed = event, let last { observers.deliver(.next(last)) }
    deliverStop(event)
  }

  @inlinable
  func add(_ subscription: SubjectMember<Element>, _ observer: Observer<Element>) {
    if !admit(subscription, observer) { return }
    if let stopEvent {
      if case .completed = stopEvent, let last {
        observer.on(.next(last))
        if subscription.isDisposed { return }
      }
      return observer.on(stopEvent)
    }
    insert(observer, subscription)
  }

  @inlinable func willDispose() { last = nil }

  @inlinable public func addOwnedNow(_ observer: Observer<Element>) { add(.owned(observer), observer) }

  /// Reached through the vtable (an operator subscribing to its source), this body runs
  /// unspecialized; for `Value` it goes on in the code specialized for it (see
  /// docs/SPECIALIZATION.md). A caller that names the type gets the check folded away.
  @inlinable public override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    if Element.self == Value.self {
      return unsafeDowncast(self, to: AsyncSubject<Value>.self).attachNow(unsafeDowncast(observer, to: Observer<Value>.self))
    }
    return attachNow(observer)
  }
}
