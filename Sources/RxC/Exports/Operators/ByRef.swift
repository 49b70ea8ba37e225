import CRxc
@_spi(RxC) import RxCore

// rxc.h section 9, callbacks by reference: by-value callbacks that forward to the
// by-reference functions of an rx_by_ref (their ctx), for FFIs whose callbacks cannot take
// or return a struct by value. Conversion only: what the callbacks mean is the by-value
// forms' business.

/// The rx_by_ref behind a trampoline's ctx; nil for NULL.
@inline(__always)
private func byRef(_ p: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<rx_by_ref>? {
  p?.assumingMemoryBound(to: rx_by_ref.self)
}

/// A missing rx_by_ref or member: named in rx_last_error(), and in the error that fails the
/// stream where the callback has one.
private func missing(_ error: UnsafeMutablePointer<UnsafeMutablePointer<rx_error>?>?, _ what: StaticString) {
  let message = "\(what) is NULL"
  setLastError(message)
  guard let error else { return }
  error.pointee = message.withCString { rx_error_new(Int32(RX_ERROR_UNKNOWN), $0) }
}

@c(rx_by_ref_on_next)
public func rx_by_ref_on_next(_ p: UnsafeMutableRawPointer?, _ value: rx_value) {
  guard let r = byRef(p), let fn = r.pointee.on_next else {
    return missing(nil, "rx_by_ref_on_next: the rx_by_ref or its on_next")
  }
  withUnsafePointer(to: value) { fn(r.pointee.ctx, $0) }
}

@c(rx_by_ref_map)
public func rx_by_ref_map(
  _ p: UnsafeMutableRawPointer?, _ v: rx_value, _ error: UnsafeMutablePointer<UnsafeMutablePointer<rx_error>?>?
) -> rx_value {
  guard let r = byRef(p), let fn = r.pointee.map else {
    missing(error, "rx_by_ref_map: the rx_by_ref or its map")
    return rx_none()
  }
  var out = rx_none()
  withUnsafePointer(to: v) { fn(r.pointee.ctx, $0, &out, error) }
  return out
}

@c(rx_by_ref_predicate)
public func rx_by_ref_predicate(
  _ p: UnsafeMutableRawPointer?, _ v: rx_value, _ error: UnsafeMutablePointer<UnsafeMutablePointer<rx_error>?>?
) -> Bool {
  guard let r = byRef(p), let fn = r.pointee.predicate else {
    missing(error, "rx_by_ref_predicate: the rx_by_ref or its predicate")
    return false
  }
  return withUnsafePointer(to: v) { fn(r.pointee.ctx, $0, error) }
}

@c(rx_by_ref_accumulate)
public func rx_by_ref_accumulate(
  _ p: UnsafeMutableRawPointer?, _ acc: rx_value, _ v: rx_value,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<rx_error>?>?
) -> rx_value {
  guard let r = byRef(p), let fn = r.pointee.accumulate else {
    missing(error, "rx_by_ref_accumulate: the rx_by_ref or its accumulate")
    return rx_none()
  }
  var out = rx_none()
  withUnsafePointer(to: acc) { a in withUnsafePointer(to: v) { fn(r.pointee.ctx, a, $0, &out, error) } }
  return out
}

@c(rx_by_ref_flat_map)
public func rx_by_ref_flat_map(
  _ p: UnsafeMutableRawPointer?, _ v: rx_value, _ error: UnsafeMutablePointer<UnsafeMutablePointer<rx_error>?>?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let r = byRef(p), let fn = r.pointee.flat_map else {
    missing(error, "rx_by_ref_flat_map: the rx_by_ref or its flat_map")
    return nil
  }
  return withUnsafePointer(to: v) { fn(r.pointee.ctx, $0, error) }
}

@c(rx_by_ref_combine)
public func rx_by_ref_combine(
  _ p: UnsafeMutableRawPointer?, _ values: UnsafePointer<rx_value>?, _ n: UInt,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<rx_error>?>?
) -> rx_value {
  guard let r = byRef(p), let fn = r.pointee.combine else {
    missing(error, "rx_by_ref_combine: the rx_by_ref or its combine")
    return rx_none()
  }
  var out = rx_none()
  fn(r.pointee.ctx, values, Int(n), &out, error)
  return out
}

@c(rx_by_ref_equal)
public func rx_by_ref_equal(_ p: UnsafeMutableRawPointer?, _ a: rx_value, _ b: rx_value) -> Bool {
  guard let r = byRef(p), let fn = r.pointee.equal else {
    missing(nil, "rx_by_ref_equal: the rx_by_ref or its equal")
    return false
  }
  return withUnsafePointer(to: a) { x in withUnsafePointer(to: b) { fn(r.pointee.ctx, x, $0) } }
}

@c(rx_by_ref_compact_map)
public func rx_by_ref_compact_map(
  _ p: UnsafeMutableRawPointer?, _ v: rx_value, _ out: UnsafeMutablePointer<rx_value>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<rx_error>?>?
) -> Bool {
  guard let r = byRef(p), let fn = r.pointee.compact_map else {
    missing(error, "rx_by_ref_compact_map: the rx_by_ref or its compact_map")
    return false
  }
  return withUnsafePointer(to: v) { fn(r.pointee.ctx, $0, out, error) }
}
