/// Broadcasts each event to the observers subscribed at that moment (RxSwift's
/// `PublishSubject`). A late subscriber gets the stop event, or `RxError.disposed` once the
/// subject is disposed.
///
/// `on` may be called from several threads at once and from inside a callback of this
/// subject: see `SubjectBase` for how every call is serialized.
public final class PublishSubject<Element>: SubjectBase<Element>, SubjectType, ObserverType, Cancelable,
  SubjectKind
{
  @inlinable public init() {
    super.init { unsafeDowncast($0, to: PublishSubject<Element>.self).handle($1) }
  }

  /// `emit(.next(element))` for the hot path: when the drain is idle the element goes
  /// straight to the observers, with no `SubjectOp` built, copied or destroyed.
  @inlinable @discardableResult
  public func emitNext(_ element: borrowing Element) -> SubjectOutcome {
    drain.emitNext(element, flags, live: { isLive }, deliver: { observers.deliverNext($0) }) {
      [unowned(unsafe) self] in self.handle($0)
    }
  }

  @inlinable
  final func handle(_ op: SubjectOp<Element>) {
    switch op {
    case .event(let event):
      if !isLive { return }
      if event.isStopEvent { deliverStop(event) } else { observers.deliver(event) }
    case .add(let subscription, let observer):
      add(subscription, observer)
    case .remove(let subscription):
      remove(subscription)
    case .dispose:
      dropAll()
    }
  }

  // Drain-owned, like `handle`.
  @inlinable
  final func add(_ subscription: SubjectMember<Element>, _ observer: Observer<Element>) {
    if !admit(subscription, observer) { return }
    if let stopEvent { return observer.on(stopEvent) }
    insert(observer, subscription)
  }

  @inlinable public func addOwnedNow(_ observer: Observer<Element>) { add(.owned(observer), observer) }
}
