import CRxc
@_spi(RxC) import RxCore

// rxc.h section 2, status and misuse: rx_status_string, rx_last_error, rx_version.

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


/// Swift string literals are NUL-terminated and live for the whole program.
@inline(__always)
func staticCString(_ s: StaticString) -> UnsafePointer<CChar> {
  UnsafeRawPointer(s.utf8Start).assumingMemoryBound(to: CChar.self)
}
