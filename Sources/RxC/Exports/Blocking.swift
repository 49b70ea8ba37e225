import CRxc
@_spi(RxC) import RxCore

// rxc.h section 10: blocking calls, for programs and tests.

@c(rx_blocking_to_array)
public func rx_blocking_to_array(
  _ source: UnsafeMutablePointer<rx_observable>?, _ timeout: Int64,
  _ outArray: UnsafeMutablePointer<rx_value>?, _ outError: UnsafeMutablePointer<UnsafeMutablePointer<rx_error>?>?
) -> rx_status {
  blocking(source, timeout, outArray, outError, "rx_blocking_to_array", { $0.blockingCollect(timeout: $1) }) { elements in
    RxValue.boxed(ArrayBox(ContiguousArray(elements))).ownedC
  }
}

@c(rx_blocking_last)
public func rx_blocking_last(
  _ source: UnsafeMutablePointer<rx_observable>?, _ timeout: Int64,
  _ out: UnsafeMutablePointer<rx_value>?, _ outError: UnsafeMutablePointer<UnsafeMutablePointer<rx_error>?>?
) -> rx_status {
  blocking(source, timeout, out, outError, "rx_blocking_last", { $0.blockingCollect(timeout: $1, lastOnly: true) }) {
    $0.last?.ownedC
  }
}

@c(rx_blocking_first)
public func rx_blocking_first(
  _ source: UnsafeMutablePointer<rx_observable>?, _ timeout: Int64,
  _ out: UnsafeMutablePointer<rx_value>?, _ outError: UnsafeMutablePointer<UnsafeMutablePointer<rx_error>?>?
) -> rx_status {
  blocking(source, timeout, out, outError, "rx_blocking_first", { $0.blockingFirst(timeout: $1) }) { $0.last?.ownedC }
}

@c(rx_blocking_single)
public func rx_blocking_single(
  _ source: UnsafeMutablePointer<rx_observable>?, _ timeout: Int64,
  _ out: UnsafeMutablePointer<rx_value>?, _ outError: UnsafeMutablePointer<UnsafeMutablePointer<rx_error>?>?
) -> rx_status {
  blocking(source, timeout, out, outError, "rx_blocking_single", { $0.blockingSingle(timeout: $1) }) { $0.last?.ownedC }
}

/// The shared body: validate, wait, and map the outcome to a status and owned outputs.
/// `wait` subscribes and waits (nil timeout: no limit); `result` turns the collected
/// elements into the owned output, or nil for "no elements".
private func blocking(
  _ source: UnsafeMutablePointer<rx_observable>?, _ timeout: Int64,
  _ out: UnsafeMutablePointer<rx_value>?, _ outError: UnsafeMutablePointer<UnsafeMutablePointer<rx_error>?>?,
  _ fn: StaticString, _ wait: (Observable<RxValue>, Int64?) -> BlockingOutcome<RxValue>,
  _ result: ([RxValue]) -> rx_value?
) -> rx_status {
  guard let out else { return fail(RX_EINVAL, "\(fn): out is NULL") }
  out.pointee = rx_none()
  outError?.pointee = nil
  guard let h = ObservableHandle.from(source, fn) else { return invalid(source) }
  switch wait(h.observable, timeout < 0 ? nil : timeout) {
  case .completed(let elements):
    guard let value = result(elements) else {
      giveError(ErrorObject.make(code: Int32(RX_ERROR_NO_ELEMENTS), RxError.noElements.message), outError)
      return fail(RX_ESTREAM, "\(fn): the sequence completed with no elements")
    }
    out.pointee = value
    return RX_OK
  case .failed(let error):
    giveError(ErrorObject.from(error), outError)
    return fail(RX_ESTREAM, "\(fn): the sequence failed")
  case .timedOut:
    return fail(RX_ETIMEOUT, "\(fn): no terminal event within \(timeout) ns")
  case .nestedRunLoop:
    return fail(RX_ESTATE, "\(fn): called on a run loop's thread from inside that loop's work (on the main thread: inside main-scheduler work)")
  }
}

private func giveError(_ error: ErrorObject, _ outError: UnsafeMutablePointer<UnsafeMutablePointer<rx_error>?>?) {
  outError?.pointee = Unmanaged.passRetained(error).toOpaque().assumingMemoryBound(to: rx_error.self)
}
