import CRxc

@_spi(RxC) public func setLastError(_ message: String) {
  message.withCString { rxc_set_last_error($0) }
}

/// Sets rx_last_error() and returns `status`, for one-line failure returns.
@discardableResult
@_spi(RxC) public func fail(_ status: rx_status, _ message: String) -> rx_status {
  setLastError(message)
  return status
}

/// The status for a pointer that failed validation (the message is already set).
@inlinable @inline(__always)
@_spi(RxC) public func invalid(_ p: UnsafeRawPointer?) -> rx_status { p == nil ? RX_EINVAL : RX_EHANDLE }
