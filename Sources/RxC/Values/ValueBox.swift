import CRxc
import Glibc
@_spi(RxC) import RxCore

/// A NUL-terminated UTF-8 copy, so rx_value_string can hand out a stable pointer.
final class StringBox: ValueBox {
  let bytes: UnsafeMutablePointer<CChar>
  let length: Int

  init(copying s: UnsafePointer<CChar>) {
    length = strlen(s)
    bytes = .allocate(capacity: length + 1)
    bytes.initialize(from: s, count: length + 1)
    super.init(RX_STRING)
  }

  init(_ s: String) {
    let utf8 = Array(s.utf8CString)
    length = utf8.count - 1
    bytes = .allocate(capacity: utf8.count)
    bytes.initialize(from: utf8, count: utf8.count)
    super.init(RX_STRING)
  }

  deinit { bytes.deallocate() }

  override func isEqual(to other: ValueBox) -> Bool {
    guard type(of: other) == StringBox.self else { return false }  // the class compared, not cast
    let o = unsafeDowncast(other, to: StringBox.self)
    return length == o.length && memcmp(bytes, o.bytes, length) == 0
  }
}

final class BytesBox: ValueBox {
  let bytes: UnsafeMutableRawPointer
  let length: Int

  init(copying data: UnsafeRawPointer?, length: Int) {
    self.length = length
    bytes = .allocate(byteCount: Swift.max(length, 1), alignment: 16)
    if let data, length > 0 { bytes.copyMemory(from: data, byteCount: length) }
    super.init(RX_BYTES)
  }

  deinit { bytes.deallocate() }

  override func isEqual(to other: ValueBox) -> Bool {
    guard type(of: other) == BytesBox.self else { return false }  // the class compared, not cast
    let o = unsafeDowncast(other, to: BytesBox.self)
    return length == o.length && memcmp(bytes, o.bytes, length) == 0
  }
}

/// Its items change only while nothing else references the box (`SpareBox`).
final class ArrayBox: ValueBox {
  var items: ContiguousArray<RxValue>

  init(_ items: ContiguousArray<RxValue>) {
    self.items = items
    super.init(RX_ARRAY)
  }

  override func isEqual(to other: ValueBox) -> Bool {
    guard let o = other as? ArrayBox, items.count == o.items.count else { return false }
    for i in items.indices where !valuesEqual(items[i], o.items[i]) { return false }
    return true
  }
}

/// User data with a destructor that runs once, when the last reference goes.
final class ObjectBox: ValueBox {
  let data: UnsafeMutableRawPointer?
  let destroy: rx_free_fn?

  init(data: UnsafeMutableRawPointer?, destroy: rx_free_fn?) {
    self.data = data
    self.destroy = destroy
    super.init(RX_OBJECT)
  }

  deinit { destroy?(data) }

  override func isEqual(to other: ValueBox) -> Bool {
    guard let o = other as? ObjectBox else { return false }
    return data == o.data
  }
}

/// Holds one C reference to an observable handle (streams of streams). A box that
/// rx_value_release drops for good is emptied (its handle's reference released then, so
/// ctx_free timing is unchanged) and kept as this thread's spare: a C loop that wraps an
/// observable per element (`rx_observable_value`, emit, `rx_value_release`) allocates no box.
/// A spare is not live (dead magic, not counted by Resources); not under RXC_DEBUG.
final class ObservableBox: ValueBox {
  /// Kept alive by the box's C reference (a handle lives while it has C references), so not
  /// retained. Nil only while the box is a spare.
  private var held: Unmanaged<ObservableHandle>?

  var handle: ObservableHandle { held.unsafelyUnwrapped.takeUnretainedValue() }

  /// The handle's observable or scalar, as the higher-order operators take it (read without
  /// a retain of the handle).
  var selection: FlatMapSelection { held.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.source.selection } }

  /// `handle` is live and the caller holds a C reference to it (so `retainC` succeeds).
  private init(_ handle: ObservableHandle) {
    held = Unmanaged.passUnretained(handle)
    _ = handle.retainC()
    super.init(RX_OBSERVABLE)
  }

  /// A box holding a C reference to `handle` (live, referenced by the caller): this thread's
  /// spare, or a new one.
  static func make(_ handle: ObservableHandle) -> ObservableBox { retained(handle).takeRetainedValue() }

  /// `make`, as the new reference (what rx_observable_value hands to C without a retain and
  /// release of its own).
  static func retained(_ handle: ObservableHandle) -> Unmanaged<ObservableBox> {
    guard let p = rxc_spare_take_observable_box() else { return Unmanaged.passRetained(ObservableBox(handle)) }
    let box = Unmanaged<ObservableBox>.fromOpaque(p)
    Resources.increment()
    box._withUnsafeGuaranteedRef {
      $0.magic = AbiObject.liveMagic
      $0.held = Unmanaged.passUnretained(handle)
    }
    _ = handle.retainC()
    return box
  }

  /// A box for a core observable, in a new handle that the box alone references.
  static func make(_ observable: Observable<RxValue>) -> ObservableBox {
    let handle = ObservableHandle(observable)
    _ = handle.toC()  // the handle's first C reference, dropped once the box holds its own
    let box = make(handle)
    handle.releaseC()
    return box
  }

  /// rx_value_release of an observable's box (C's reference, moved here).
  static func release(_ u: Unmanaged<ObservableBox>) {
    var box = u.takeRetainedValue()
    guard isKnownUniquelyReferenced(&box), mayReuseUniqueObject(), !debugPoison else { return }
    dropHandle(box.held.unsafelyUnwrapped)
    box.held = nil
    box.magic = AbiObject.deadMagic
    Resources.decrement()
    let p = Unmanaged.passRetained(consume box).toOpaque()
    if !keepAsSpare(p, { rxc_spare_put_observable_box($0) }) { Unmanaged<ObservableBox>.fromOpaque(p).release() }
  }

  deinit {
    if let held { Self.dropHandle(held) } else { Resources.increment() }  // a spare was counted out
  }

  /// Drops the box's C reference, as rx_release would.
  private static func dropHandle(_ h: Unmanaged<ObservableHandle>) {
    if h._withUnsafeGuaranteedRef({ $0.dropCReference() }) { ObservableHandle.retire(h) }
  }

  override func isEqual(to other: ValueBox) -> Bool {
    guard let o = other as? ObservableBox else { return false }
    return handle === o.handle
  }
}

/// A materialized event. Changed only while nothing else references the box (`SpareBox`).
final class EventBox: ValueBox {
  var event: Event<RxValue>

  init(_ event: Event<RxValue>) {
    self.event = event
    super.init(RX_EVENT)
  }

  var eventKind: rx_event_kind {
    switch event {
    case .next: return RX_EVENT_NEXT
    case .error: return RX_EVENT_ERROR
    case .completed: return RX_EVENT_COMPLETED
    }
  }

  override func isEqual(to other: ValueBox) -> Bool {
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
  static func errorValue(_ error: any Error) -> RxValue { .boxed(EventBox(.error(ErrorObject.from(error)))) }
}

/// `valuesEqual` of the values at `a` and `b`: two ints or two pointers by their payload
/// bits, in place (the layout `RxValue.c(at:)` describes); the rest by `valuesEqual`.
@inline(__always) func valuesEqual(at a: UnsafePointer<RxValue>, _ b: UnsafePointer<RxValue>) -> Bool {
  let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
  let tag = ra.load(fromByteOffset: 8, as: UInt8.self)
  // Tags 0 (int) and 3 (pointer): bits of 0b1001.
  if MemoryLayout<RxValue>.size == 9, tag == rb.load(fromByteOffset: 8, as: UInt8.self), (UInt32(0b1001) &>> UInt32(tag)) & 1 != 0 {
    return ra.load(as: UInt64.self) == rb.load(as: UInt64.self)
  }
  return valuesEqualOutOfLine(at: a, b)
}

/// The rest of `valuesEqual(at:_:)`, out of the inlined per-element path: boxes compared
/// where they lie (`pointee` would copy, so retain and release, each value).
@inline(never) func valuesEqualOutOfLine(at a: UnsafePointer<RxValue>, _ b: UnsafePointer<RxValue>) -> Bool {
  if let x = RxValue.unretainedObject(at: a) {
    guard let y = RxValue.unretainedObject(at: b) else { return false }
    return boxesEqual(x, y)
  }
  return valuesEqual(a.pointee, b.pointee)
}

/// rx_value_equal's semantics, on the Swift side.
func valuesEqual(_ a: borrowing RxValue, _ b: borrowing RxValue) -> Bool {
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
func boxesEqual(_ a: Unmanaged<ValueBox>, _ b: Unmanaged<ValueBox>) -> Bool {
  a._withUnsafeGuaranteedRef { a in
    b._withUnsafeGuaranteedRef { b in a.valueKind == b.valueKind && a.isEqual(to: b) }
  }
}
