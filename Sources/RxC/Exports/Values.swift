import CRxc
@_spi(RxC) import RxCore

// rxc.h section 3: values.

// Values: constructors, readers, boxes, retain/release, equality (rxc.h, "Values").

@c(rx_int) public func rx_int(_ i: Int64) -> rx_value { RxValue.int(i).c }
@c(rx_double) public func rx_double(_ d: Double) -> rx_value { RxValue.double(d).c }
@c(rx_bool) public func rx_bool(_ b: Bool) -> rx_value { RxValue.bool(b).c }
@c(rx_ptr) public func rx_ptr(_ p: UnsafeMutableRawPointer?) -> rx_value { RxValue.ptr(p).c }
@c(rx_none) public func rx_none() -> rx_value { RxValue.none.c }

/// True if `v` is of `kind`; otherwise rx_last_error() names both kinds.
@inline(__always) private func isKind(_ v: rx_value, _ kind: rx_kind, _ fn: StaticString) -> Bool {
  if v.kind == kind { return true }
  setLastError("\(fn): value is of kind \(v.kind.rawValue), expected \(kind.rawValue)")
  return false
}

@c(rx_value_int) public func rx_value_int(_ v: rx_value) -> Int64 {
  isKind(v, RX_INT, "rx_value_int") ? v.i : -1
}
@c(rx_value_double) public func rx_value_double(_ v: rx_value) -> Double {
  isKind(v, RX_DOUBLE, "rx_value_double") ? v.d : 0
}
@c(rx_value_bool) public func rx_value_bool(_ v: rx_value) -> Bool {
  isKind(v, RX_BOOL, "rx_value_bool") ? v.b : false
}
@c(rx_value_ptr) public func rx_value_ptr(_ v: rx_value) -> UnsafeMutableRawPointer? {
  isKind(v, RX_PTR, "rx_value_ptr") ? v.ptr : nil
}

@c(rx_string)
public func rx_string(_ utf8: UnsafePointer<CChar>?) -> rx_value {
  guard let utf8 else {
    setLastError("rx_string: utf8 is NULL")
    return rx_none()
  }
  return RxValue.boxed(StringBox(copying: utf8)).ownedC
}

@c(rx_bytes)
public func rx_bytes(_ data: UnsafeRawPointer?, _ len: UInt) -> rx_value {
  let len = Int(len)
  if data == nil && len > 0 {
    setLastError("rx_bytes: data is NULL but len is \(len)")
    return rx_none()
  }
  return RxValue.boxed(BytesBox(copying: data, length: len)).ownedC
}

@c(rx_array)
public func rx_array(_ items: UnsafePointer<rx_value>?, _ n: UInt) -> rx_value {
  let n = Int(n)
  if items == nil && n > 0 {
    setLastError("rx_array: items is NULL but n is \(n)")
    return rx_none()
  }
  var values = ContiguousArray<RxValue>()
  values.reserveCapacity(n)
  for i in 0..<n {
    guard let v = RxValue.from(items![i], "rx_array") else { return rx_none() }
    values.append(v)
  }
  return RxValue.boxed(ArrayBox(values)).ownedC
}

@c(rx_object)
public func rx_object(_ data: UnsafeMutableRawPointer?, _ destroy: rx_free_fn?) -> rx_value {
  RxValue.boxed(ObjectBox(data: data, destroy: destroy)).ownedC
}

@c(rx_observable_value)
public func rx_observable_value(_ observable: UnsafeMutablePointer<rx_observable>?) -> rx_value {
  guard let p = Validate.pointer(observable, .observable, "rx_observable_value", "observable") else {
    return rx_none()
  }
  var v = rx_value()
  v.kind = RX_OBSERVABLE
  // The handle borrowed under the caller's reference; the new box's reference goes to C.
  let box = Unmanaged<ObservableHandle>.fromOpaque(p)._withUnsafeGuaranteedRef { ObservableBox.retained($0) }
  v.box = UnsafeRawPointer(box.toOpaque())
  return v
}

@c(rx_value_retain)
public func rx_value_retain(_ v: rx_value) -> rx_value {
  // A box gets one retain, of the box C lends: not a value built, copied and destroyed around
  // it (three atomic operations).
  if v.kind.rawValue >= RX_STRING.rawValue {
    guard let box = RxValue.borrowedBox(v, "rx_value_retain") else { return rx_none() }
    _ = box.retain()
    return v
  }
  guard let value = RxValue.from(v, "rx_value_retain") else { return rx_none() }
  return value.ownedC
}

@c(rx_value_release)
public func rx_value_release(_ v: rx_value) {
  guard v.kind.rawValue >= RX_STRING.rawValue, let box = RxValue.borrowedBox(v, "rx_value_release") else { return }
  if v.kind == RX_OBSERVABLE { return ObservableBox.release(unsafeBitCast(box, to: Unmanaged<ObservableBox>.self)) }
  box.release()
}

/// `body` on the box of `v` if it is of `kind`, else nil with rx_last_error() set. The box is
/// borrowed under C's reference (no retain), and each boxed kind is made by one final class,
/// so the class is compared rather than cast.
@inline(__always)
private func withBox<T: ValueBox, R>(_ v: rx_value, _ kind: rx_kind, as: T.Type, _ fn: StaticString, _ body: (T) -> R) -> R? {
  guard isKind(v, kind, fn), let b = RxValue.borrowedBox(v, fn) else { return nil }
  return b._withUnsafeGuaranteedRef { box -> R? in
    guard type(of: box) == T.self else {
      setLastError("\(fn): value box is not of its kind's class")
      return nil
    }
    return body(unsafeDowncast(box, to: T.self))
  }
}

@c(rx_value_string)
public func rx_value_string(_ v: rx_value) -> UnsafePointer<CChar>? {
  withBox(v, RX_STRING, as: StringBox.self, "rx_value_string") { UnsafePointer($0.bytes) } ?? nil
}

@c(rx_value_bytes)
public func rx_value_bytes(_ v: rx_value, _ len: UnsafeMutablePointer<UInt>?) -> UnsafeRawPointer? {
  guard let (bytes, length) = withBox(v, RX_BYTES, as: BytesBox.self, "rx_value_bytes", { ($0.bytes, $0.length) }) else {
    len?.pointee = 0
    return nil
  }
  len?.pointee = UInt(length)
  return UnsafeRawPointer(bytes)
}

@c(rx_array_count)
public func rx_array_count(_ v: rx_value) -> UInt {
  UInt(withBox(v, RX_ARRAY, as: ArrayBox.self, "rx_array_count") { $0.items.count } ?? 0)
}

@c(rx_array_get)
public func rx_array_get(_ v: rx_value, _ index: UInt) -> rx_value {
  withBox(v, RX_ARRAY, as: ArrayBox.self, "rx_array_get") { b in
    guard index < UInt(b.items.count) else {
      setLastError("rx_array_get: index \(index) out of range (count \(b.items.count))")
      return rx_none()
    }
    return b.items[Int(index)].c
  } ?? rx_none()
}

@c(rx_object_data)
public func rx_object_data(_ v: rx_value) -> UnsafeMutableRawPointer? {
  withBox(v, RX_OBJECT, as: ObjectBox.self, "rx_object_data") { $0.data } ?? nil
}

@c(rx_value_observable)
public func rx_value_observable(_ v: rx_value) -> UnsafeMutablePointer<rx_observable>? {
  withBox(v, RX_OBSERVABLE, as: ObservableBox.self, "rx_value_observable") { $0.handle.borrowedPointer }
}

@c(rx_value_event_kind)
public func rx_value_event_kind(_ v: rx_value) -> rx_event_kind {
  withBox(v, RX_EVENT, as: EventBox.self, "rx_value_event_kind") { $0.eventKind } ?? RX_EVENT_NONE
}

@c(rx_value_event_value)
public func rx_value_event_value(_ v: rx_value) -> rx_value {
  withBox(v, RX_EVENT, as: EventBox.self, "rx_value_event_value") { b in
    guard case .next(let value) = b.event else {
      setLastError("rx_value_event_value: the event is not a next event")
      return rx_none()
    }
    return value.c
  } ?? rx_none()
}

@c(rx_value_event_error)
public func rx_value_event_error(_ v: rx_value) -> UnsafePointer<rx_error>? {
  withBox(v, RX_EVENT, as: EventBox.self, "rx_value_event_error") { b -> UnsafePointer<rx_error>? in
    guard case .error(let error) = b.event, let e = error as? ErrorObject else {
      setLastError("rx_value_event_error: the event is not an error event")
      return nil
    }
    return e.cPointer
  } ?? nil
}

@c(rx_value_equal)
public func rx_value_equal(_ a: rx_value, _ b: rx_value) -> Bool {
  let fn: StaticString = "rx_value_equal"
  let aBoxed = a.kind.rawValue >= RX_STRING.rawValue, bBoxed = b.kind.rawValue >= RX_STRING.rawValue
  if !aBoxed && !bBoxed {
    guard let x = RxValue.from(a, fn), let y = RxValue.from(b, fn) else { return false }
    return valuesEqual(x, y)
  }
  // Boxes checked and compared where C lends them (made into values, each was retained and
  // released): a first, then b, so the message names the first bad one; a box never equals
  // a plain value.
  let x = aBoxed ? RxValue.borrowedBox(a, fn) : nil
  if aBoxed && x == nil { return false }
  let y = bBoxed ? RxValue.borrowedBox(b, fn) : nil
  if bBoxed && y == nil { return false }
  guard let x, let y else { return false }
  return boxesEqual(x, y)
}
