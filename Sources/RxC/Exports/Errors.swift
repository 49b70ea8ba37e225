import CRxc
@_spi(RxC) import RxCore

// rxc.h section 4: errors carried by streams.

@c(rx_error_new)
public func rx_error_new(_ code: Int32, _ message: UnsafePointer<CChar>?) -> UnsafeMutablePointer<rx_error>? {
  let e = ErrorObject(code: code, message: message)
  return Unmanaged.passRetained(e).toOpaque().assumingMemoryBound(to: rx_error.self)
}

@c(rx_error_code)
public func rx_error_code(_ error: UnsafePointer<rx_error>?) -> Int32 {
  guard let e = ErrorObject.fromC(error, "rx_error_code") else { return 0 }
  return e.code
}

@c(rx_error_message)
public func rx_error_message(_ error: UnsafePointer<rx_error>?) -> UnsafePointer<CChar>? {
  guard let e = ErrorObject.fromC(error, "rx_error_message") else { return nil }
  return UnsafePointer(e.message)
}
