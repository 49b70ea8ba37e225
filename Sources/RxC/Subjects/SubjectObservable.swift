import RxCore

/// The observable side of an rx_subject, as rx_subject_as_observable lends it. The subject
/// lives as long as its rx_subject handle, which calls `detach()` when it goes; a caller that
/// retained the observable past that sees what a disposed subject gives late subscribers.
/// Subscribing goes through `AbiSubject.attach`, so it runs specialized code.
///
/// A strong reference, not a weak one: a weakly referenced object gets a side table, and
/// then every retain and release of the subject takes the slow path. It is a `let`, kept
/// for the whole life of this object (a disposed subject answers late subscribers itself),
/// so subscribing borrows it: no lock, no retain. Only under RXC_DEBUG, where a released
/// observable handle stays allocated for ever, the subject is held in `debugSubject`
/// instead, under a lock, and `detach` lets go of it.
final class SubjectObservable: Observable<RxValue> {
  private let subject: (any AbiSubject)?
  private let lock = SpinLock()
  private var debugSubject: (any AbiSubject)?

  init(_ subject: any AbiSubject) {
    if debugPoison {
      self.subject = nil
      debugSubject = subject
    } else {
      self.subject = subject
      debugSubject = nil
    }
    super.init()
  }

  /// Under RXC_DEBUG: the subject, or nil once its handle is gone.
  private var currentDebugSubject: (any AbiSubject)? {
    lock.lock()
    defer { lock.unlock() }
    return debugSubject
  }

  /// Its rx_subject handle was destroyed: under RXC_DEBUG, lets go of the subject (this
  /// object may never be freed); otherwise the subject stays, disposed, until this goes.
  func detach() {
    guard subject == nil else { return }
    lock.lock()
    let s = debugSubject
    debugSubject = nil
    lock.unlock()
    withExtendedLifetime(s) {}  // released after the lock
  }

  override func subscribe(_ observer: Observer<RxValue>) -> any Disposable {
    if let subject { return subject.attach(observer) }
    guard let subject = currentDebugSubject else {
      observer.on(.error(RxError.disposed))
      return NopDisposable.shared
    }
    return subject.attach(observer)
  }

  /// Subscribes a C observer as an owned member of the subject (no subscription object).
  func attach(_ observer: CObserver) {
    if let subject { return observer.attach(to: subject) }
    guard let subject = currentDebugSubject else { return observer.on(.error(RxError.disposed)) }
    observer.attach(to: subject)
  }
}
