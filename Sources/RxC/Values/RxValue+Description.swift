import CRxc
@_spi(RxC) import RxCore

extension Value {
  /// How rx_debug writes a value: integers and doubles as numbers, true/false, none, a
  /// pointer in hex, a string in double quotes, an array's items in brackets, and the other
  /// boxes by kind (bytes with their length).
  var debugText: String {
    switch self {
    case .none: return "none"
    case .int(let i): return String(i)
    case .double(let d): return String(describing: d)
    case .bool(let b): return b ? "true" : "false"
    case .ptr(let p): return "0x" + String(UInt(bitPattern: p), radix: 16)
    case .boxed:
      switch box {
      case let s as StringBox: return "\"" + String(cString: s.bytes) + "\""
      case let b as BytesBox: return "bytes[\(b.length)]"
      case let a as ArrayBox: return "[" + a.items.map(\.debugText).joined(separator: ", ") + "]"
      case is ObjectBox: return "object"
      case is ObservableBox: return "observable"
      case let e as EventBox:
        switch e.event {
        case .next(let v): return "event(next(\(v.debugText)))"
        case .error(let error): return "event(error(\(ErrorObject.from(error).debugText)))"
        case .completed: return "event(completed)"
        }
      default: return "value"
      }
    }
  }
}

extension ErrorObject {
  /// How rx_debug writes an error: its code and message.
  var debugText: String { "\(code) \(String(cString: message))" }
}
