import CRxc

/// Turns what an operator's C callback hands back (an owned result, an owned error in its
/// `error` out-parameter) into Swift values and thrown errors, taking ownership exactly once.
@_spi(RxC) public enum CallbackResult {
  /// The error a callback set: its C reference becomes the Swift one.
  public static func takeError(_ p: UnsafeMutablePointer<rx_error>, _ fn: StaticString) -> ErrorObject {
    guard ErrorObject.fromC(UnsafePointer(p), fn, "*error") != nil else {
      return ErrorObject.make(code: Int32(RX_ERROR_UNKNOWN), "\(fn): the callback set *error to something that is not an rx_error")
    }
    return Unmanaged<ErrorObject>.fromOpaque(UnsafeRawPointer(p)).takeRetainedValue()
  }

  public static func check(_ error: UnsafeMutablePointer<rx_error>?, _ fn: StaticString) throws {
    if let error { throw takeError(error, fn) }
  }

  /// An owned value returned by a callback that may have set `error`.
  @inlinable @inline(__always)
  public static func value(_ result: rx_value, _ error: UnsafeMutablePointer<rx_error>?, _ fn: StaticString) throws -> Value {
    if error == nil && result.kind.rawValue < RX_STRING.rawValue, let v = Value.from(result, fn) { return v }
    return try valueSlow(result, error, fn)
  }

  @inline(never)  // kept out of the per-element loops that inline `value`
  public static func valueSlow(_ result: rx_value, _ error: UnsafeMutablePointer<rx_error>?, _ fn: StaticString) throws -> Value {
    if let error {
      // A failing callback may still have returned an owned value: free it.
      if result.kind.rawValue >= RX_STRING.rawValue { _ = Value.takeOwned(result, fn) }
      throw takeError(error, fn)
    }
    guard let v = Value.takeOwned(result, fn) else {
      throw ErrorObject.make(code: Int32(RX_ERROR_TYPE), "\(fn): the callback returned an invalid value")
    }
    return v
  }
}
