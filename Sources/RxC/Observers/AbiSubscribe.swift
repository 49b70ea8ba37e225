import CRxc
import RxCore

// Section 5 of the contract: subscribing and disposing.

@c(rx_subscribe)
public func rx_subscribe(_ source: UnsafeMutablePointer<rx_observable>?, _ observer: rx_observer)
  -> UnsafeMutablePointer<rx_disposable>?
{
  // The handle and its observable borrowed under the caller's reference, and the observer
  // made before the borrow (a call in between would make ARC retain the observable).
  guard let p = Validate.pointer(source, .observable, "rx_subscribe", "source") else { return nil }
  let cObserver = CObserver.make(observer)
  return Unmanaged<ObservableHandle>.fromOpaque(p)._withUnsafeGuaranteedRef { h in
    if let core = h.unretainedCore { return subscribe(cObserver, to: core) }
    return cObserver._withUnsafeGuaranteedRef { o in
      o.on(.next(h.scalar.unsafelyUnwrapped))  // rx_just: the value and completion, at once
      o.on(.completed)
      return o.token
    }
  }
}

/// Subscribes a C observer to a core observable and returns its owned token.
func subscribeC(_ observable: Observable<RxValue>, _ observer: rx_observer)
  -> UnsafeMutablePointer<rx_disposable>
{
  subscribe(CObserver.make(observer), to: Unmanaged.passUnretained(observable))
}

/// Subscribes a new observer (with the one reference its token will own) and returns the token.
private func subscribe(_ observer: Unmanaged<CObserver>, to source: Unmanaged<Observable<RxValue>>)
  -> UnsafeMutablePointer<rx_disposable>
{
  source._withUnsafeGuaranteedRef { observable in observer._withUnsafeGuaranteedRef { cObserver in
    if type(of: observable) == SubjectObservable.self {
      unsafeDowncast(observable, to: SubjectObservable.self).attach(cObserver)
    } else if type(of: observable) == RxPipeline.self,
      case .scalar(let v) = unsafeDowncast(observable, to: RxPipeline.self).root
    {
      // Runs to completion here, with nothing upstream to dispose.
      unsafeDowncast(observable, to: RxPipeline.self).emitScalar(v, cObserver)
    } else {
      cObserver.attach(observable.subscribe(cObserver))
    }
    return cObserver.token
  } }
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
