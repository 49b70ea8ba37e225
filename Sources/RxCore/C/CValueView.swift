import CRxc

/// An immutable, reference-counted value payload. Swift's own reference count is the C one:
/// rx_value_retain/release retain and release this object, and the core's copies of an
/// Value do the same through ARC, so every box is freed exactly once.
@_spi(RxC) open class ValueBox: AbiObject, @unchecked Sendable {
  public final let valueKind: rx_kind

  public init(_ kind: rx_kind) {
    self.valueKind = kind
    super.init(kind: .value)
    Resources.increment()
  }

  deinit {
    magic = AbiObject.deadMagic
    Resources.decrement()
  }

  open func isEqual(to other: ValueBox) -> Bool { self === other }
}

/// The C view of a value, which C callbacks receive.
extension Value {

  /// A borrowed C view: valid while this Value (and so its box) is alive.
  @_spi(RxC) @inlinable @inline(__always) public var c: rx_value {
    var v = rx_value()
    switch self {
    case .none: v.kind = RX_NONE
    case .int(let i): v.kind = RX_INT; v.i = i
    case .double(let d): v.kind = RX_DOUBLE; v.d = d
    case .bool(let b): v.kind = RX_BOOL; v.b = b
    case .ptr(let p): v.kind = RX_PTR; v.ptr = p
    case .boxed(let object):
      let box = unsafeDowncast(object, to: ValueBox.self)
      v.kind = box.valueKind
      v.box = UnsafeRawPointer(Unmanaged.passUnretained(box).toOpaque())
    }
    return v
  }

  /// `c` of the value at `p`, with no jump table for ints, doubles and pointers. Swift lays
  /// an Value out as its 8-byte payload and a tag byte that numbers the payload cases in
  /// declaration order (int 0, double 1, bool 2, ptr 3, boxed 4; `none` after them), so the
  /// C kind of those three is their tag + 1 and their payload is the C value's 64 bits (a
  /// bool's other 7 bytes are not defined: it takes `c`). The C harness's `runs_every_kind_*`
  /// tests (test_subject_runs.c) fail if that layout ever changes.
  @_spi(RxC) @inlinable @inline(__always) public static func c(at p: UnsafePointer<Value>) -> rx_value {
    let raw = UnsafeRawPointer(p)
    let tag = raw.load(fromByteOffset: 8, as: UInt8.self)
    // Tags 0, 1 and 3 (bits of 0b1011); a valid tag is at most 5, so the shift is in range.
    guard MemoryLayout<Value>.size == 9, (UInt32(0b1011) &>> UInt32(tag)) & 1 != 0 else { return p.pointee.c }
    var v = rx_value()
    v.kind = rx_kind(UInt32(tag) &+ 1)
    v.i = raw.load(as: Int64.self)
    return v
  }

  /// An owned C value: the caller receives its own reference to the box.
  @_spi(RxC) @inlinable @inline(__always) public var ownedC: rx_value {
    if case .boxed(let box) = self { _ = Unmanaged.passRetained(box) }
    return c
  }
}


/// Typed views of `rx_value`'s payload (`i`, 64 bits): the C header has no union, so the
/// double, bool, pointer and box readings are bit casts of the one integer.
@_spi(RxC) extension rx_value {
  @inlinable @inline(__always) public var d: Double {
    get { Double(bitPattern: UInt64(bitPattern: i)) }
    set { i = Int64(bitPattern: newValue.bitPattern) }
  }

  @inlinable @inline(__always) public var b: Bool {
    get { i != 0 }
    set { i = newValue ? 1 : 0 }
  }

  @inlinable @inline(__always) public var ptr: UnsafeMutableRawPointer? {
    get { UnsafeMutableRawPointer(bitPattern: Int(truncatingIfNeeded: i)) }
    set { i = Int64(Int(bitPattern: newValue)) }
  }

  /// The address of a boxed value's box (kinds RX_STRING and after).
  @inlinable @inline(__always) public var box: UnsafeRawPointer? {
    get { UnsafeRawPointer(bitPattern: Int(truncatingIfNeeded: i)) }
    set { i = Int64(Int(bitPattern: newValue)) }
  }
}
