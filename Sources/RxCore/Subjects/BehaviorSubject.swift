import Glibc
import Synchronization

/// Holds a current value: each new subscriber gets it first, then every later event
/// (RxSwift's `BehaviorSubject`). After a stop event late subscribers get only the stop
/// event; after dispose, `RxError.disposed`. Serialized like every subject (see `SubjectBase`).
public final class BehaviorSubject<Element>: SubjectBase<Element>, SubjectType, ObserverType, Cancelable,
  SubjectHandling
{
  /// What `value()` reads from any thread; written only by the drain handler.
  @usableFromInline struct Current {
    @usableFromInline var value: Element
    @usableFromInline var error: (any Error)?
    @usableFromInline var disposed = false
    @usableFromInline init(_ value: Element) { self.value = value }
  }

  /// Guards `current` (see `SpinLock`) once `value()` has been called: readers and the drain
  /// handler then copy or swap under it. Until then nobody but the drain handler touches
  /// `current`, and `takeNext` swaps without the lock (an atomic read-modify-write per event,
  /// the most this subject pays per event otherwise). The first reader switches the subject
  /// to the locked mode for good, in a handshake with the drain (`readers`, `writing`).
  @usableFromInline let currentLock = SpinLock()
  @usableFromInline var current: Current
  /// 0 until `value()` is first called; 1 while that reader switches the subject over; 2 once
  /// every writer takes `currentLock`.
  @usableFromInline let readers = Atomic<Int>(0)
  /// True while `takeNext` swaps without the lock (drain-owned: plain stores on x86-64).
  @usableFromInline let writing = Atomic<Bool>(false)

  @inlinable public init(value: Element) {
    current = Current(value)
    super.init { unsafeDowncast($0, to: BehaviorSubject<Element>.self).handle($1) }
  }

  /// The current value, from any thread. Throws the stream's error after `onError`, and
  /// `RxError.disposed` after `dispose()`; after completion it is still the last value.
  public func value() throws -> Element {
    if SubjectFlags.isDisposed(flags) { throw RxError.disposed }
    if readers.load(ordering: .acquiring) != 2 { lockWriters() }
    currentLock.lock()
    let c = current
    currentLock.unlock()
    if c.disposed { throw RxError.disposed }
    if let error = c.error { throw error }
    return c.value
  }

  /// The reader's side of the handshake (docs/CONCURRENCY.md): after the heavy fence a
  /// writer either is seen inside its unlocked swap (and waited for) or sees `readers` and
  /// takes the lock. Later readers wait until the first one is through.
  @inline(never)
  func lockWriters() {
    if readers.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged {
      AsymmetricFence.heavySide()
      while writing.load(ordering: .acquiring) { _ = sched_yield() }
      readers.store(2, ordering: .releasing)
    } else {
      while readers.load(ordering: .acquiring) != 2 { _ = sched_yield() }
    }
  }

  // The hooks of `SubjectHandling`, drain-owned.

  @inlinable
  public func takeNext(_ element: borrowing Element) {
    replaceCurrent(with: copy element)
    observers.deliverNext(element)
  }

  /// By pointer: the element is copied once, into `current` (not also into a temporary).
  @inlinable
  public func takeNext(at element: UnsafePointer<Element>) {
    replaceCurrent(with: element.pointee)
    observers.deliverNext(at: element)
  }

  @inlinable @inline(__always)
  func replaceCurrent(with new: consuming Element) {
    // Swap, so the old value is released after the lock (its destructor may be user code).
    var previous = new
    // The writer's side of the handshake: mark the swap, then look for a reader.
    writing.store(true, ordering: .relaxed)
    AsymmetricFence.lightSide()
    if readers.load(ordering: .acquiring) == 0 {
      swap(&current.value, &previous)
      writing.store(false, ordering: .releasing)
    } else {
      writing.store(false, ordering: .releasing)
      currentLock.lock()
      swap(&current.value, &previous)
      currentLock.unlock()
    }
  }

  @inlinable
  func takeStop(_ event: Event<Element>) {
    if case .error(let error) = event {
      currentLock.lock()
      current.error = error
      currentLock.unlock()
    }
    deliverStop(event)
  }

  @inlinable
  func add(_ subscription: SubjectMember<Element>, _ observer: Observer<Element>) {
    if !admit(subscription, observer) { return }
    if let stopEvent { return observer.on(stopEvent) }
    insert(observer, subscription)
    currentLock.lock()
    let value = current.value
    currentLock.unlock()
    observer.on(.next(value))
  }

  @inlinable
  func willDispose() {
    currentLock.lock()
    current.disposed = true
    let error = current.error.take()
    currentLock.unlock()
    withExtendedLifetime(error) {}  // released after the lock
  }

  @inlinable public func addOwnedNow(_ observer: Observer<Element>) { add(.owned(observer), observer) }

  /// Reached through the vtable (an operator subscribing to its source), this body runs
  /// unspecialized; for `Value` it goes on in the code specialized for it (see
  /// docs/SPECIALIZATION.md). A caller that names the type gets the check folded away.
  @inlinable public override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    if Element.self == Value.self {
      return unsafeDowncast(self, to: BehaviorSubject<Value>.self).attachNow(unsafeDowncast(observer, to: Observer<Value>.self))
    }
    return attachNow(observer)
  }
}
