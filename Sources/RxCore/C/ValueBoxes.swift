import CRxc
import Glibc

/// A NUL-terminated UTF-8 copy, so rx_value_string can hand out a stable pointer.
@_spi(RxC) public final class StringBox: ValueBox {
  public let bytes: UnsafeMutablePointer<CChar>
  public let length: Int

  public init(copying s: UnsafePointer<CChar>) {
    length = strlen(s)
    bytes = .allocate(capacity: length + 1)
    bytes.initialize(from: s, count: length + 1)
    super.init(RX_STRING)
  }

  public init(_ s: String) {
    let utf8 = Array(s.utf8CString)
    length = utf8.count - 1
    bytes = .allocate(capacity: utf8.count)
    bytes.initialize(from: utf8, count: utf8.count)
    super.init(RX_STRING)
  }

  deinit { bytes.deallocate() }

  @inlinable public override func isEqual(to other: ValueBox) -> Bool {
    guard type(of: other) == StringBox.self else { return false }  // the class compared, not cast
    let o = unsafeDowncast(other, to: StringBox.self)
    return length == o.length && memcmp(bytes, o.bytes, length) == 0
  }
}

@_spi(RxC) public final class BytesBox: ValueBox {
  public let bytes: UnsafeMutableRawPointer
  public let length: Int

  public init(copying data: UnsafeRawPointer?, length: Int) {
    self.length = length
    bytes = .allocate(byteCount: Swift.max(length, 1), alignment: 16)
    if let data, length > 0 { bytes.copyMemory(from: data, byteCount: length) }
    super.init(RX_BYTES)
  }

  deinit { bytes.deallocate() }

  @inlinable public override func isEqual(to other: ValueBox) -> Bool {
    guard type(of: other) == BytesBox.self else { return false }  // the class compared, not cast
    let o = unsafeDowncast(other, to: BytesBox.self)
    return length == o.length && memcmp(bytes, o.bytes, length) == 0
  }
}

/// Its items change only while nothing else references the box (`SpareBox`).
@_spi(RxC) public final class ArrayBox: ValueBox {
  public var items: ContiguousArray<Value>

  public init(_ items: ContiguousArray<Value>) {
    self.items = items
    super.init(RX_ARRAY)
  }

  public override func isEqual(to other: ValueBox) -> Bool {
    guard let o = other as? ArrayBox, items.count == o.items.count else { return false }
    for i in items.indices where !valuesEqual(items[i], o.items[i]) { return false }
    return true
  }
}

/// User data with a destructor that runs once, when the last reference goes.
@_spi(RxC) public final class ObjectBox: ValueBox {
  public let data: UnsafeMutableRawPointer?
  public let destroy: rx_free_fn?

  public init(data: UnsafeMutableRawPointer?, destroy: rx_free_fn?) {
    self.data = data
    self.destroy = destroy
    super.init(RX_OBJECT)
  }

  deinit { destroy?(data) }

  public override func isEqual(to other: ValueBox) -> Bool {
    guard let o = other as? ObjectBox else { return false }
    return data == o.data
  }
}

/// A materialized event. Changed only while nothing else references the box (`SpareBox`).
@_spi(RxC) public final class EventBox: ValueBox {
  public var event: Event<Value>

  public init(_ event: Event<Value>) {
    self.event = event
    super.init(RX_EVENT)
  }

  public var eventKind: rx_event_kind {
    switch event {
    case .next: return RX_EVENT_NEXT
    case .error: return RX_EVENT_ERROR
    case .completed: return RX_EVENT_COMPLETED
    }
  }

  public override func isEqual(to other: ValueBox) -> Bool {
    guard let o = other as? EventBox else { return false }
    switch (event, o.event) {
    case (.next(let a), .next(let b)): return valuesEqual(a, b)
    case (.completed, .completed): return true
    case (.error(let a), .error(let b)):
      let ea = ErrorObject.from(a), eb = ErrorObject.from(b)
      return ea.code == eb.code && strcmp(ea.message, eb.message) == 0
    default: return false
    }
  }

  /// An RX_EVENT error value; the error becomes an rx_error so rx_value_event_error can hand it out.
  public static func errorValue(_ error: any Error) -> Value { .boxed(EventBox(.error(ErrorObject.from(error)))) }
}

/// `valuesEqual` of the values at `a` and `b`: two ints or two pointers by their payload
/// bits, in place (the layout `Value.c(at:)` describes); the rest by `valuesEqual`.
@_spi(RxC) @inline(__always) public func valuesEqual(at a: UnsafePointer<Value>, _ b: UnsafePointer<Value>) -> Bool {
  let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
  let tag = ra.load(fromByteOffset: 8, as: UInt8.self)
  // Tags 0 (int) and 3 (pointer): bits of 0b1001.
  if MemoryLayout<Value>.size == 9, tag == rb.load(fromByteOffset: 8, as: UInt8.self), (UInt32(0b1001) &>> UInt32(tag)) & 1 != 0 {
    return ra.load(as: UInt64.self) == rb.load(as: UInt64.self)
  }
  return valuesEqualOutOfLine(at: a, b)
}

/// The rest of `valuesEqual(at:_:)`, out of the inlined per-element path: boxes compared
/// where they lie (`pointee` would copy, so retain and release, each value).
@_spi(RxC) @inline(never) public func valuesEqualOutOfLine(at a: UnsafePointer<Value>, _ b: UnsafePointer<Value>) -> Bool {
  if let x = Value.unretainedObject(at: a) {
    guard let y = Value.unretainedObject(at: b) else { return false }
    return boxesEqual(x, y)
  }
  return valuesEqual(a.pointee, b.pointee)
}

/// rx_value_equal's semantics, on the Swift side.
@_spi(RxC) public func valuesEqual(_ a: borrowing Value, _ b: borrowing Value) -> Bool {
  // Boxes compared where they are: a switch over the pair would copy (retain) both values.
  if let x = a.unretainedObject {
    guard let y = b.unretainedObject else { return false }
    return boxesEqual(x, y)
  }
  switch (copy a, copy b) {  // plain values: nothing retained
  case (.none, .none): return true
  case (.int(let x), .int(let y)): return x == y
  case (.double(let x), .double(let y)): return x == y
  case (.bool(let x), .bool(let y)): return x == y
  case (.ptr(let x), .ptr(let y)): return x == y
  default: return false
  }
}

/// Two values' boxes, borrowed from them (every box is a `ValueBox`).
private func boxesEqual(_ x: Unmanaged<AnyObject>, _ y: Unmanaged<AnyObject>) -> Bool {
  boxesEqual(unsafeBitCast(x, to: Unmanaged<ValueBox>.self), unsafeBitCast(y, to: Unmanaged<ValueBox>.self))
}

/// rx_value_equal's semantics for two boxes, borrowed.
@_spi(RxC) public func boxesEqual(_ a: Unmanaged<ValueBox>, _ b: Unmanaged<ValueBox>) -> Bool {
  a._withUnsafeGuaranteedRef { a in
    b._withUnsafeGuaranteedRef { b in a.valueKind == b.valueKind && a.isEqual(to: b) }
  }
}
