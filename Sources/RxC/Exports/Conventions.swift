import CRxc
@_spi(RxC) import RxCore

// rxc.h section 1, conventions: a handle's references (rx_retain, rx_release).

@c(rx_retain)
public func rx_retain(_ handle: UnsafeRawPointer?) -> UnsafeMutableRawPointer? {
  if let handle, Validate.isLive(handle, .disposable), let token = ObserverEnd.token(at: handle) {
    guard token.retainC() else {
      setLastError("rx_retain: handle was already released")
      return nil
    }
    return UnsafeMutableRawPointer(mutating: handle)
  }
  guard let object = Validate.anyObject(handle, "rx_retain") else { return nil }
  if let h = object as? Handle {
    guard h.retainC() else {
      setLastError("rx_retain: handle was already released")
      return nil
    }
  } else {
    _ = Unmanaged.passUnretained(object).retain()
  }
  return UnsafeMutableRawPointer(mutating: handle)
}

@c(rx_release)
public func rx_release(_ handle: UnsafeRawPointer?) {
  guard let handle else { return }
  // Tokens and observables without a dynamic cast (ObservableHandle is the kind's only
  // class) or a retain: the last Swift reference goes outside the borrow.
  if Validate.isLive(handle, .disposable), ObserverEnd.isToken(handle) {
    return ObserverEnd.release(token: UnsafeMutableRawPointer(mutating: handle))
  }
  if Validate.isLive(handle, .observable) {
    let h = Unmanaged<ObservableHandle>.fromOpaque(handle)
    if h._withUnsafeGuaranteedRef({ $0.dropCReference() }) { ObservableHandle.retire(h) }
    return
  }
  guard let object = Validate.anyObject(handle, "rx_release") else { return }
  if let h = object as? Handle {
    h.releaseC()
  } else {
    Unmanaged.passUnretained(object).release()
  }
}
