import CRxc
import RxCore

// rxc.h sections 1, 2 and 11: retain/release, status, version, accounting.

@c(rx_retain)
public func rx_retain(_ handle: UnsafeRawPointer?) -> UnsafeMutableRawPointer? {
  if let handle, Validate.isLive(handle, .disposable), let token = CObserver.token(at: handle) {
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
  if Validate.isLive(handle, .disposable), CObserver.isToken(handle) {
    return CObserver.release(token: UnsafeMutableRawPointer(mutating: handle))
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

@c(rx_status_string)
public func rx_status_string(_ status: rx_status) -> UnsafePointer<CChar>? {
  let text: StaticString
  switch status {
  case RX_OK: text = "RX_OK: success"
  case RX_EINVAL: text = "RX_EINVAL: invalid argument"
  case RX_EHANDLE: text = "RX_EHANDLE: not a live handle of the expected kind"
  case RX_ESTATE: text = "RX_ESTATE: not allowed in the current state"
  case RX_EDISPOSED: text = "RX_EDISPOSED: the object is disposed"
  case RX_ETIMEOUT: text = "RX_ETIMEOUT: timed out"
  case RX_ESTREAM: text = "RX_ESTREAM: the stream ended with an error"
  default: text = "unknown rx_status"
  }
  return staticCString(text)
}

@c(rx_last_error)
public func rx_last_error() -> UnsafePointer<CChar>? { rxc_get_last_error() }

@c(rx_version)
public func rx_version() -> UnsafePointer<CChar>? { staticCString("0.5.0") }

@c(rx_debug_live_objects)
public func rx_debug_live_objects() -> Int64 { Int64(Resources.total) }

/// Swift string literals are NUL-terminated and live for the whole program.
@inline(__always)
func staticCString(_ s: StaticString) -> UnsafePointer<CChar> {
  UnsafeRawPointer(s.utf8Start).assumingMemoryBound(to: CChar.self)
}
