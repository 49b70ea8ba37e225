/// Replays up to `bufferSize` recent elements (or all, unbounded) to each new subscriber,
/// then continues live (RxSwift's `ReplaySubject`). After a stop event late subscribers get
/// the buffer and then the stop event; after dispose, `RxError.disposed` (the buffer is
/// freed). Serialized like every subject (see `SubjectBase`).
public final class ReplaySubject<Element>: SubjectBase<Element>, SubjectType, ObserverType, Cancelable,
  SubjectHandling
{
  /// Int.max when unbounded.
  public let bufferSize: Int
  // Drain-owned, like the hooks.
  @usableFromInline var buffer: ReplayBuffer<Element>

  /// A replay subject keeping the last `bufferSize` (>= 1) elements.
  @inlinable public init(bufferSize: Int) {
    precondition(bufferSize >= 1, "ReplaySubject buffer size must be at least 1")
    self.bufferSize = bufferSize
    buffer = ReplayBuffer(limit: bufferSize)
    super.init { unsafeDowncast($0, to: ReplaySubject<Element>.self).handle($1) }
  }

  @inlinable public static func create(bufferSize: Int) -> ReplaySubject { ReplaySubject(bufferSize: bufferSize) }
  @inlinable public static func createUnbounded() -> ReplaySubject { ReplaySubject(bufferSize: .max) }

  deinit { buffer.deallocate() }

  // The hooks of `SubjectHandling`, drain-owned.

  @inlinable
  public func takeNext(_ element: borrowing Element) {
    buffer.append(copy element)
    observers.deliverNext(element)
  }

  /// By pointer: the element is copied once, into the buffer.
  @inlinable public func takeNext(at element: UnsafePointer<Element>) {
    buffer.append(element.pointee)
    observers.deliverNext(at: element)
  }

  @inlinable
  func add(_ subscription: SubjectMember<Element>, _ observer: Observer<Element>) {
    if !admit(subscription, observer) { return }
    // The buffer cannot change meanwhile: handlers never nest.
    switch subscription {
    case .owned:  // checks its own disposal between elements
      buffer.forEachRun { run in
        observer.onNext(contentsOf: run)
        return !observer.wantsNoMoreEvents
      }
    case .subscription(let s), .fresh(let s):
      // By pointer where the observer takes it: no copy of each element, no `Event`.
      let byPointer = observer.takesNextByPointer
      buffer.forEachRun { run in
        for i in run.indices {
          if s._withUnsafeGuaranteedRef({ $0.isDisposed }) { return false }
          if byPointer { observer.onNext(at: run.baseAddress.unsafelyUnwrapped + i) } else { observer.on(.next(run[i])) }
        }
        return true
      }
    }
    if let stopEvent {
      if !subscription.isDisposed { observer.on(stopEvent) }
      return
    }
    if subscription.isDisposed { return }
    insert(observer, subscription)
  }

  @inlinable func willDispose() { buffer.removeAll() }

  @inlinable public func addOwnedNow(_ observer: Observer<Element>) { add(.owned(observer), observer) }

  /// Reached through the vtable (an operator subscribing to its source), this body runs
  /// unspecialized; for `Value` it goes on in the code specialized for it (see
  /// docs/SPECIALIZATION.md). A caller that names the type gets the check folded away.
  @inlinable public override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    if Element.self == Value.self {
      return unsafeDowncast(self, to: ReplaySubject<Value>.self).attachNow(unsafeDowncast(observer, to: Observer<Value>.self))
    }
    return attachNow(observer)
  }
}
