/// The one element type the core is specialized for: what the C ABI's streams carry, and
/// what Swift callers use to get the same speed. Plain data is inline (no reference
/// counting on the int/double path); anything else is a reference-counted object the core
/// never looks into (the C layer's boxes: strings, bytes, arrays, events, observables).
///
/// Operators have concrete classes for `Observable<Value>` (see `docs/SPECIALIZATION.md`):
/// a generic class's methods run unspecialized when called through its vtable, so each
/// operator's generic sink gets a non-generic leaf for `Value` whose overrides inline the
/// generic bodies, specialized.
///
/// Layout (the C layer relies on it, and tests it): 8 bytes of payload and a tag byte that
/// numbers the payload cases in declaration order (int 0, double 1, bool 2, ptr 3, boxed 4),
/// `none` after them.
@frozen public enum Value {
  case none
  case int(Int64)
  case double(Double)
  case bool(Bool)
  case ptr(UnsafeMutableRawPointer?)
  case boxed(AnyObject)
}

extension Value {
  /// A copy of the value at `p`: plain data by its bits, with no outlined copy (a call and
  /// a jump table); a boxed one (tag 4, see the layout above) by a retaining copy.
  @inlinable @inline(__always) public static func copy(at p: UnsafePointer<Value>) -> Value {
    guard MemoryLayout<Value>.size == 9, UnsafeRawPointer(p).load(fromByteOffset: 8, as: UInt8.self) != 4 else {
      return p.pointee
    }
    // The bytes duplicated into a local of the same layout, then taken from it as a Value:
    // nothing to retain. (Unprotected: no stack protector for a local this small.)
    var bits = PlainBits(payload: UnsafeRawPointer(p).load(as: UInt64.self),
                         tag: UnsafeRawPointer(p).load(fromByteOffset: 8, as: UInt8.self))
    return _withUnprotectedUnsafeMutablePointer(to: &bits) {
      $0.withMemoryRebound(to: Value.self, capacity: 1) { $0.move() }
    }
  }

  /// The object of a `.boxed` value, not retained (valid while this value is), else nil:
  /// read from the layout above, so looking at a box costs no retain and release of it.
  @inlinable @inline(__always) public var unretainedObject: Unmanaged<AnyObject>? {
    guard MemoryLayout<Value>.size == 9 else {
      if case .boxed(let object) = self { return .passUnretained(object) }
      return nil
    }
    return withUnsafeBytes(of: self) { raw in
      raw.load(fromByteOffset: 8, as: UInt8.self) == 4 ? Unmanaged.fromOpaque(raw.load(as: UnsafeRawPointer.self)) : nil
    }
  }

  /// `unretainedObject` of the value at `p`, read from memory (no copy of the value).
  @inlinable @inline(__always) public static func unretainedObject(at p: UnsafePointer<Value>) -> Unmanaged<AnyObject>? {
    guard MemoryLayout<Value>.size == 9 else { return p.pointee.unretainedObject }
    let raw = UnsafeRawPointer(p)
    return raw.load(fromByteOffset: 8, as: UInt8.self) == 4 ? Unmanaged.fromOpaque(raw.load(as: UnsafeRawPointer.self)) : nil
  }

  /// `body` on `.boxed(object)` built in place from `object`'s address, with no retain and
  /// nothing destroyed after (see the layout above): for a caller that keeps `object` alive
  /// across the call. Whatever `body` keeps of the value, it copies (and so retains).
  @inlinable @inline(__always)
  public static func withBorrowedBoxed<R>(_ object: Unmanaged<AnyObject>, _ body: (UnsafePointer<Value>) -> R) -> R {
    guard MemoryLayout<Value>.size == 9 else {
      let value = Value.boxed(object.takeUnretainedValue())
      return withUnsafePointer(to: value) { body($0) }
    }
    var bits = PlainBits(payload: UInt64(UInt(bitPattern: object.toOpaque())), tag: 4)
    return _withUnprotectedUnsafeMutablePointer(to: &bits) {
      $0.withMemoryRebound(to: Value.self, capacity: 1) { body($0) }
    }
  }

  /// The tag of `.boxed` in the layout above.
  @inlinable static var boxedTag: UInt8 { 4 }

  /// The bits of the value at `p` (a box not retained: valid while that value is).
  @inlinable @inline(__always) static func bits(at p: UnsafePointer<Value>) -> PlainBits {
    PlainBits(payload: UnsafeRawPointer(p).load(as: UInt64.self), tag: UnsafeRawPointer(p).load(fromByteOffset: 8, as: UInt8.self))
  }

  /// The bits of `value` (a box not retained: valid while `value` is).
  @inlinable @inline(__always) static func bits(of value: borrowing Value) -> PlainBits {
    _withUnprotectedUnsafePointer(to: value) { bits(at: $0) }
  }

  /// `body` on the value whose bits are `w`, borrowed: a plain one rebuilt from its bits (per
  /// case, so nothing is left to destroy after), a boxed one around its object without a
  /// retain (the caller keeps that value alive).
  @inlinable @inline(__always)
  static func withBorrowed<R>(_ w: PlainBits, _ body: (Value) throws -> R) rethrows -> R {
    switch w.tag {
    case 0: return try body(.int(Int64(bitPattern: w.payload)))
    case boxedTag:
      return try Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: UInt(w.payload)).unsafelyUnwrapped)
        ._withUnsafeGuaranteedRef { try body(.boxed($0)) }
    case 1: return try body(.double(Double(bitPattern: w.payload)))
    case 2: return try body(.bool(w.payload & 0xff != 0))
    case 3: return try body(.ptr(UnsafeMutableRawPointer(bitPattern: UInt(w.payload))))
    default: return try body(.none)
    }
  }

  /// `body` on the value at `p`, borrowed where it is (`withBorrowed`): a closure of a Value
  /// leaf gets an element lent by pointer with no copy (for a box, no retain and release).
  @inlinable @inline(__always)
  static func withBorrowed<R>(at p: UnsafePointer<Value>, _ body: (Value) throws -> R) rethrows -> R {
    try withBorrowed(bits(at: p), body)
  }

  /// `body` on the values at `a` and `b`, both borrowed where they are.
  @inlinable @inline(__always)
  static func withBorrowed<R>(at a: UnsafePointer<Value>, _ b: UnsafePointer<Value>, _ body: (Value, Value) throws -> R) rethrows -> R {
    try withBorrowed(at: a) { x in try withBorrowed(at: b) { y in try body(x, y) } }
  }

  /// Value's layout, with nothing to retain (`copy(at:)`).
  @usableFromInline struct PlainBits {
    @usableFromInline var payload: UInt64
    @usableFromInline var tag: UInt8
    @inlinable init(payload: UInt64, tag: UInt8) {
      self.payload = payload
      self.tag = tag
    }
  }
}
