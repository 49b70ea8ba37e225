/// Emits only the last element, and only when the source completes (RxSwift's
/// `AsyncSubject`): observers get that element then `completed`, or just `completed` if
/// there was none, or the error. Late subscribers get the same; after dispose,
/// `RxError.disposed`. Serialized like `PublishSubject`.
public final class AsyncSubject<Element>: SubjectBase<Element>, SubjectType, ObserverType, Cancelable,
  SubjectKind
{
  // Drain-owned, like `handle`.
  @usableFromInline var last: Element?

  @inlinable public init() {
    super.init { unsafeDowncast($0, to: AsyncSubject<Element>.self).handle($1) }
  }

  /// `emit(.next(element))` for the hot path: when the drain is idle the element becomes
  /// the last one at once, with no `SubjectOp` built.
  @inlinable @discardableResult
  public func emitNext(_ element: borrowing Element) -> SubjectOutcome {
    drain.emitNext(element, flags, live: { isLive }, deliver: { last = copy $0 }) {
      [unowned(unsafe) self] in self.handle($0)
    }
  }

  @inlinable
  final func handle(_ op: SubjectOp<Element>) {
    switch op {
    case .event(let event):
      if !isLive { return }
      switch event {
      case .next(let element):
        last = element
      case .error:
        deliverStop(event)
      case .completed:
        // As RxSwift: the value to everyone, then completed to everyone.
        if let last { observers.deliver(.next(last)) }
        deliverStop(event)
      }
    case .add(let subscription, let observer):
      add(subscription, observer)
    case .remove(let subscription):
      remove(subscription)
    case .dispose:
      last = nil
      dropAll()
    }
  }

  // Drain-owned, like `handle`.
  @inlinable
  final func add(_ subscription: SubjectMember<Element>, _ observer: Observer<Element>) {
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

  @inlinable public func addOwnedNow(_ observer: Observer<Element>) { add(.owned(observer), observer) }
}
