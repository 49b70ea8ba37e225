import CRxc
@_spi(RxC) import RxCore

/// A C observer as a subject's member: the core's `SubjectObservable` attaches it, on a loan
/// or on a reference to the subject (`ObserverEnd+Upstream`).
extension CObserver {
  /// A subscription to a subject's observable: its token.
  @inline(__always)
  static func subscribe(_ callbacks: rx_observer, to subject: Unmanaged<SubjectObservable>)
    -> UnsafeMutablePointer<rx_disposable>
  {
    let o = make(callbacks)
    o._withUnsafeGuaranteedRef { observer in subject._withUnsafeGuaranteedRef { $0.attach(observer) } }
    return o.toOpaque().assumingMemoryBound(to: rx_disposable.self)
  }
}
