import CRxc

@_spi(RxC) extension Value {

  /// Reads a borrowed C value, checking its kind and box. Nil (rx_last_error set) if bad.
  @inlinable @inline(__always) public static func from(_ v: rx_value, _ fn: StaticString) -> Value? {
    switch v.kind {
    case RX_INT: return .int(v.i)
    case RX_DOUBLE: return .double(v.d)
    case RX_BOOL: return .bool(v.b)
    case RX_PTR: return .ptr(v.ptr)
    case RX_NONE: return Value.none
    default: return fromBoxedOutOfLine(v, fn)
    }
  }

  /// Kept out of `from`'s plain paths (inlined there, it cost rx_just 7 instructions).
  @inline(never) public static func fromBoxedOutOfLine(_ v: rx_value, _ fn: StaticString) -> Value? { fromBoxed(v, fn) }

  public static func fromBoxed(_ v: rx_value, _ fn: StaticString) -> Value? {
    guard let box = borrowedBox(v, fn) else { return nil }
    return .boxed(box.takeUnretainedValue())
  }

  /// The C value `v` lent as a value for one call, copied nowhere: `plain` gets a scalar
  /// built in its own branch (the compiler then knows it holds no reference and destroys
  /// nothing after the call), `boxed` the box C lends, where it lies (not retained: what the
  /// callee keeps, it copies). Nil, with rx_last_error() set, for a bad box.
  @inlinable @inline(__always)
  public static func lend<R>(
    _ v: rx_value, _ fn: StaticString, plain: (Value) -> R, boxed: (UnsafePointer<Value>) -> R
  ) -> R? {
    switch v.kind {
    case RX_INT: return plain(.int(v.i))
    case RX_DOUBLE: return plain(.double(v.d))
    case RX_BOOL: return plain(.bool(v.b))
    case RX_PTR: return plain(.ptr(v.ptr))
    case RX_NONE: return plain(Value.none)
    default:
      guard let box = borrowedBox(v, fn) else { return nil }
      return Value.withBorrowedBoxed(unsafeBitCast(box, to: Unmanaged<AnyObject>.self)) { boxed($0) }
    }
  }

  /// The box of a boxed `v`, checked, not retained (borrowed under C's reference); nil, with
  /// rx_last_error() set, if it is not a live box of `v`'s kind.
  @inlinable @inline(__always)
  public static func borrowedBox(_ v: rx_value, _ fn: StaticString) -> Unmanaged<ValueBox>? {
    // The checks of `checkedBox` with nothing saved or formatted, for the usual good value.
    if v.kind.rawValue >= RX_STRING.rawValue && v.kind.rawValue <= RX_EVENT.rawValue,
      let p = UnsafeRawPointer(v.box), Validate.isLive(p, .value)
    {
      let box = Unmanaged<ValueBox>.fromOpaque(p)  // only boxes are made with the `.value` kind
      if box._withUnsafeGuaranteedRef({ $0.valueKind }) == v.kind { return box }
    }
    return checkedBox(v, fn)
  }

  /// `borrowedBox` the long way, setting rx_last_error() for what is wrong.
  @inline(never)
  public static func checkedBox(_ v: rx_value, _ fn: StaticString) -> Unmanaged<ValueBox>? {
    guard v.kind.rawValue >= RX_STRING.rawValue && v.kind.rawValue <= RX_EVENT.rawValue else {
      setLastError("\(fn): value has an invalid kind \(v.kind.rawValue)")
      return nil
    }
    guard let object = Validate.unretainedObject(UnsafeRawPointer(v.box), .value, fn, "value box") else { return nil }
    // Only boxes are made with the `.value` kind: no dynamic cast needed.
    let box = unsafeBitCast(object, to: Unmanaged<ValueBox>.self)
    let kind = box._withUnsafeGuaranteedRef { $0.valueKind }
    guard kind == v.kind else {
      setLastError("\(fn): value kind \(v.kind.rawValue) does not match its box (\(kind.rawValue))")
      return nil
    }
    return box
  }

  public var box: ValueBox? {
    if case .boxed(let b) = self { return unsafeDowncast(b, to: ValueBox.self) }
    return nil
  }
}

@_spi(RxC) extension Value {
  /// Takes over an owned value a C callback returned: the callback's reference to the box
  /// becomes the Swift reference, so the box is neither leaked nor freed twice. Nil (and
  /// nothing taken) if the value is not valid.
  public static func takeOwned(_ v: rx_value, _ fn: StaticString) -> Value? {
    guard v.kind.rawValue >= RX_STRING.rawValue else { return Value.from(v, fn) }
    return Value.borrowedBox(v, fn).map { .boxed($0.takeRetainedValue()) }  // no retain/release pair
  }
}
