import CRxc
@_spi(RxC) import RxCore

extension CallbackResult {
  /// An owned observable returned by a callback that may have set `error`.
  static func observable(
    _ result: UnsafeMutablePointer<rx_observable>?, _ error: UnsafeMutablePointer<rx_error>?, _ fn: StaticString
  ) throws -> Observable<RxValue> {
    switch try source(result, error, fn) {
    case .observable(let o): return o
    case .scalar(let v): return ValueJust(v)
    }
  }

  /// `observable`, keeping an rx_just result as its value.
  static func source(
    _ result: UnsafeMutablePointer<rx_observable>?, _ error: UnsafeMutablePointer<rx_error>?, _ fn: StaticString
  ) throws -> RxSource {
    if let error {
      if let result { _ = ObservableHandle.takeSource(result, fn) }
      throw takeError(error, fn)
    }
    guard let result else {
      throw ErrorObject.make(code: Int32(RX_ERROR_UNKNOWN), "\(fn): the callback returned no observable")
    }
    guard let source = ObservableHandle.takeSource(result, fn) else {
      throw ErrorObject.make(code: Int32(RX_ERROR_TYPE), "\(fn): the callback returned something that is not an rx_observable")
    }
    return source
  }
}

/// The core observables behind a C array of sources; nil (message set) if any is invalid.
func observableArray(
  _ srcs: UnsafePointer<UnsafeMutablePointer<rx_observable>?>?, _ n: UInt, _ fn: StaticString
) -> [Observable<RxValue>]? {
  if n > 0 && srcs == nil {
    setLastError("\(fn): srcs is NULL but n is \(n)")
    return nil
  }
  var result: [Observable<RxValue>] = []
  result.reserveCapacity(Int(n))
  for i in 0..<Int(n) {
    guard let h = ObservableHandle.from(srcs![i], fn, "an element of srcs") else { return nil }
    result.append(h.observable)
  }
  return result
}

/// The flat_map adapters: their callbacks return handles.
extension CAdapt {
  /// concat_map's and flat_map_latest's selector: the outer element's C view read in place;
  /// an rx_just result handed over as its value (`.element`: no inner observable).
  static func flatMapAt(_ fn: rx_flat_map_fn, _ context: CContext, _ name: StaticString)
    -> (UnsafePointer<Value>) throws -> FlatMapSelection
  {
    { p in
      var err: UnsafeMutablePointer<rx_error>? = nil
      let r = fn(context.ctx, Value.c(at: p), &err)
      return try CallbackResult.source(r, err, name).selection
    }
  }
}
