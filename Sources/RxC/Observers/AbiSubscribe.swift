import CRxc
import RxCore

// Section 5 of the contract: subscribing and disposing.

@c(rx_subscribe)
public func rx_subscribe(_ source: UnsafeMutablePointer<rx_observable>?, _ observer: rx_observer)
  -> UnsafeMutablePointer<rx_disposable>?
{
  guard let h = ObservableHandle.from(source, "rx_subscribe") else { return nil }
  return subscribeC(h.observable, observer)
}

/// Subscribes a C observer to a core observable and returns its owned token.
func subscribeC(_ observable: Observable<RxValue>, _ observer: rx_observer)
  -> UnsafeMutablePointer<rx_disposable>
{
  CObserver.make(observer)._withUnsafeGuaranteedRef { cObserver in
    if type(of: observable) == SubjectObservable.self {
      unsafeDowncast(observable, to: SubjectObservable.self).attach(cObserver)
    } else {
      cObserver.attach(observable.subscribe(cObserver))
    }
    return cObserver.token
  }
}

@c(rx_dispose)
public func rx_dispose(_ d: UnsafeMutablePointer<rx_disposable>?) -> rx_status {
  // A subscription token, reached without retain/release (the caller's reference keeps it).
  if let d, Validate.isLive(d, .disposable), CObserver.isToken(d) {
    let token = Unmanaged<CObserver>.fromOpaque(d)
    if token._withUnsafeGuaranteedRef({ $0.dispose(); return $0.dropCReference() }) { token.release() }
    return RX_OK
  }
  guard let h = DisposableHandle.from(d, "rx_dispose") else { return invalid(d) }
  switch h {
  case .token(let o): o.dispose()
  case .handle(let h): h.disposable.dispose()
  }
  h.releaseC()
  return RX_OK
}

@c(rx_disposable_is_disposed)
public func rx_disposable_is_disposed(_ d: UnsafeMutablePointer<rx_disposable>?) -> Bool {
  DisposableHandle.from(d, "rx_disposable_is_disposed")?.isDisposed ?? false
}
