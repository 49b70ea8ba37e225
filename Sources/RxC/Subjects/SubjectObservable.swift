import RxCore

/// The observable side of an rx_subject, as rx_subject_as_observable lends it. It refers to
/// the subject weakly: the subject lives as long as its rx_subject handle, and a caller that
/// retained the observable past that sees what a disposed subject gives late subscribers.
/// Subscribing goes through `AbiSubject.attach`, so it runs specialized code.
final class SubjectObservable: Observable<RxValue> {
  private weak var subject: (any AbiSubject)?

  init(_ subject: any AbiSubject) {
    self.subject = subject
    super.init()
  }

  override func subscribe(_ observer: Observer<RxValue>) -> any Disposable {
    guard let subject else {
      observer.on(.error(RxError.disposed))
      return NopDisposable.shared
    }
    return subject.attach(observer)
  }
}
