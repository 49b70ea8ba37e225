import RxCore

/// The observable side of an rx_subject, as rx_subject_as_observable lends it. The subject
/// lives as long as its rx_subject handle, which calls `detach()` when it goes; a caller that
/// retained the observable past that sees what a disposed subject gives late subscribers.
/// Subscribing goes through `AbiSubject.attach`, so it runs specialized code.
///
/// A strong reference under a short lock, not a weak one: a weakly referenced object gets a
/// side table, and then every retain and release of the subject takes the slow path.
final class SubjectObservable: Observable<RxValue> {
  private let lock = SpinLock()
  private var subject: (any AbiSubject)?

  init(_ subject: any AbiSubject) {
    self.subject = subject
    super.init()
  }

  /// The subject, or nil once its handle is gone.
  private var current: (any AbiSubject)? {
    lock.lock()
    defer { lock.unlock() }
    return subject
  }

  /// Lets go of the subject (its rx_subject handle was destroyed).
  func detach() {
    lock.lock()
    let s = subject
    subject = nil
    lock.unlock()
    withExtendedLifetime(s) {}  // released after the lock
  }

  override func subscribe(_ observer: Observer<RxValue>) -> any Disposable {
    guard let subject = current else {
      observer.on(.error(RxError.disposed))
      return NopDisposable.shared
    }
    return subject.attach(observer)
  }

  /// Subscribes a C observer as an owned member of the subject (no subscription object).
  func attach(_ observer: CObserver) {
    guard let subject = current else { return observer.on(.error(RxError.disposed)) }
    observer.attach(to: consume subject)
  }
}
