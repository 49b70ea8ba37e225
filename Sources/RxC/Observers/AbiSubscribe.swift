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
  let cObserver = CObserver(observer)
  cObserver.attach(observable.subscribe(cObserver))
  return DisposableHandle.make(cObserver)
}

@c(rx_dispose)
public func rx_dispose(_ d: UnsafeMutablePointer<rx_disposable>?) -> rx_status {
  guard let h = DisposableHandle.from(d, "rx_dispose") else { return invalid(d) }
  h.disposable.dispose()
  h.releaseC()
  return RX_OK
}

@c(rx_disposable_is_disposed)
public func rx_disposable_is_disposed(_ d: UnsafeMutablePointer<rx_disposable>?) -> Bool {
  DisposableHandle.from(d, "rx_disposable_is_disposed")?.isDisposed ?? false
}
