import CRxc
import RxCore

// rxc.h section 5: subscribing and disposing.

@c(rx_subscribe)
public func rx_subscribe(_ source: UnsafeMutablePointer<rx_observable>?, _ observer: rx_observer)
  -> UnsafeMutablePointer<rx_disposable>?
{
  // The handle and its observable borrowed under the caller's reference: no retain/release.
  guard let p = Validate.pointer(source, .observable, "rx_subscribe", "source") else { return nil }
  let h = Unmanaged<ObservableHandle>.fromOpaque(p)
  let (sort, core) = h._withUnsafeGuaranteedRef { ($0.sort, $0.unretainedCore) }
  guard let core else { return subscribe(observer, toScalarOf: h) }  // rx_just
  switch sort {
  case .subject:  // (the hot paths of subscribe + dispose, and of just -> map -> subscribe)
    return CObserver.subscribe(observer, to: unsafeBitCast(core, to: Unmanaged<SubjectObservable>.self))
  case .pipeline:
    return subscribe(observer, to: unsafeBitCast(core, to: Unmanaged<CPipeline>.self))
  case .observable:
    return subscribe(observer, to: core)
  }
}

/// Subscribes a C observer to a core observable and returns its owned token.
func subscribeC(_ observable: Observable<RxValue>, _ observer: rx_observer)
  -> UnsafeMutablePointer<rx_disposable>
{
  subscribe(observer, to: Unmanaged.passUnretained(observable))
}

@inline(never)
private func subscribe(_ observer: rx_observer, toScalarOf h: Unmanaged<ObservableHandle>)
  -> UnsafeMutablePointer<rx_disposable>
{
  h._withUnsafeGuaranteedRef { h in CObserver.runToEnd(observer) { $0(h.scalarC) } }
}

@inline(never)
private func subscribe(_ observer: rx_observer, to source: Unmanaged<CPipeline>) -> UnsafeMutablePointer<rx_disposable> {
  source._withUnsafeGuaranteedRef { pipeline in
    if pipeline.rootObservable == nil { return CObserver.runToEnd(observer) { try pipeline.runScalar($0) } }
    return CObserver.subscribe(observer, to: pipeline)
  }
}

@inline(never)
private func subscribe(_ observer: rx_observer, to source: Unmanaged<Observable<RxValue>>)
  -> UnsafeMutablePointer<rx_disposable>
{
  source._withUnsafeGuaranteedRef { observable in
    if type(of: observable) == SubjectObservable.self {
      return CObserver.subscribe(observer, to: Unmanaged.passUnretained(unsafeDowncast(observable, to: SubjectObservable.self)))
    }
    if type(of: observable) == CPipeline.self {
      return subscribe(observer, to: Unmanaged.passUnretained(unsafeDowncast(observable, to: CPipeline.self)))
    }
    return CObserver.subscribe(observer, to: observable)
  }
}

@c(rx_dispose)
public func rx_dispose(_ d: UnsafeMutablePointer<rx_disposable>?) -> rx_status {
  // A subscription token, reached without retain/release (the caller's reference keeps it).
  if let d, Validate.isLive(d, .disposable), CObserver.isToken(d) { return CObserver.dispose(token: d) }
  return disposeHandle(d)
}

@inline(never)
private func disposeHandle(_ d: UnsafeMutablePointer<rx_disposable>?) -> rx_status {
  guard let h = DisposableHandle.from(d, "rx_dispose") else { return invalid(d) }
  switch h {
  case .token(let o): o.dispose()
  case .handle(let h): h.dispose()
  }
  h.releaseC()
  return RX_OK
}

@c(rx_disposable_is_disposed)
public func rx_disposable_is_disposed(_ d: UnsafeMutablePointer<rx_disposable>?) -> Bool {
  DisposableHandle.from(d, "rx_disposable_is_disposed")?.isDisposed ?? false
}
