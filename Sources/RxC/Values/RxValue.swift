import CRxc
import RxCore

/// The element type the C ABI instantiates the Swift core with. Plain data stays inline (no
/// reference counting on the int/double path); boxed kinds hold their box with ARC, so the
/// generic core copies and frees them correctly without knowing about C.
enum RxValue {
  case none
  case int(Int64)
  case double(Double)
  case bool(Bool)
  case ptr(UnsafeMutableRawPointer?)
  case boxed(ValueBox)

  /// A borrowed C view: valid while this RxValue (and so its box) is alive.
  @inline(__always) var c: rx_value {
    var v = rx_value()
    switch self {
    case .none: v.kind = RX_NONE
    case .int(let i): v.kind = RX_INT; v.as.i = i
    case .double(let d): v.kind = RX_DOUBLE; v.as.d = d
    case .bool(let b): v.kind = RX_BOOL; v.as.b = b
    case .ptr(let p): v.kind = RX_PTR; v.as.ptr = p
    case .boxed(let box):
      v.kind = box.valueKind
      v.as.box = Unmanaged.passUnretained(box).toOpaque().assumingMemoryBound(to: rx_boxed.self)
    }
    return v
  }

  /// An owned C value: the caller receives its own reference to the box.
  var ownedC: rx_value {
    if case .boxed(let box) = self { _ = Unmanaged.passRetained(box) }
    return c
  }

  /// Reads a borrowed C value, checking its kind and box. Nil (rx_last_error set) if bad.
  @inline(__always) static func from(_ v: rx_value, _ fn: StaticString) -> RxValue? {
    switch v.kind {
    case RX_INT: return .int(v.as.i)
    case RX_DOUBLE: return .double(v.as.d)
    case RX_BOOL: return .bool(v.as.b)
    case RX_PTR: return .ptr(v.as.ptr)
    case RX_NONE: return RxValue.none
    default: return fromBoxed(v, fn)
    }
  }

  static func fromBoxed(_ v: rx_value, _ fn: StaticString) -> RxValue? {
    guard v.kind.rawValue >= RX_STRING.rawValue && v.kind.rawValue <= RX_EVENT.rawValue else {
      setLastError("\(fn): value has an invalid kind \(v.kind.rawValue)")
      return nil
    }
    guard let object = Validate.object(UnsafeRawPointer(v.as.box), .value, fn, "value box"),
      let box = object as? ValueBox
    else { return nil }
    guard box.valueKind == v.kind else {
      setLastError("\(fn): value kind \(v.kind.rawValue) does not match its box (\(box.valueKind.rawValue))")
      return nil
    }
    return .boxed(box)
  }

  var box: ValueBox? {
    if case .boxed(let b) = self { return b }
    return nil
  }
}
