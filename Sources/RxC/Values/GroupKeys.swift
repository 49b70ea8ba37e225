import CRxc
import Glibc
@_spi(RxC) import RxCore

// The boxes that can be rx_group_by keys, by content (rx_value_equal's semantics).

// The class compared, not cast (`as?` is a runtime cast per comparison).
extension StringBox: ContentKey {
  public func keyEquals(_ other: AnyObject) -> Bool {
    type(of: other) == StringBox.self && isEqual(to: unsafeDowncast(other, to: StringBox.self))
  }

  public func hashKey(into hasher: inout Hasher) {
    hasher.combine(bytes: UnsafeRawBufferPointer(start: bytes, count: length))
  }
}

extension BytesBox: ContentKey {
  public func keyEquals(_ other: AnyObject) -> Bool {
    type(of: other) == BytesBox.self && isEqual(to: unsafeDowncast(other, to: BytesBox.self))
  }

  public func hashKey(into hasher: inout Hasher) {
    hasher.combine(length)
    hasher.combine(bytes: UnsafeRawBufferPointer(start: bytes, count: length))
  }
}

enum GroupKeys {
  /// `value` as a group key; RX_ERROR_TYPE for a kind that cannot be one.
  static func key(_ value: RxValue, _ fn: StaticString) throws -> ValueKey {
    if let key = ValueKey(value) { return key }
    if case .boxed(let object) = value {
      switch unsafeDowncast(object, to: ValueBox.self).valueKind {
      case RX_STRING: return ValueKey(content: unsafeDowncast(object, to: StringBox.self))
      case RX_BYTES: return ValueKey(content: unsafeDowncast(object, to: BytesBox.self))
      default: break
      }
    }
    throw CAdapt.typeError(
      "\(fn): the key function returned \(describe(value)), which cannot be a key "
        + "(keys are RX_INT, RX_DOUBLE but NaN, RX_BOOL, RX_PTR, RX_STRING or RX_BYTES)")
  }

  private static func describe(_ value: RxValue) -> String {
    if case .double = value { return "a NaN RX_DOUBLE" }
    let names = ["RX_NONE", "RX_INT", "RX_DOUBLE", "RX_BOOL", "RX_PTR", "RX_STRING", "RX_BYTES", "RX_ARRAY",
                 "RX_OBJECT", "RX_OBSERVABLE", "RX_EVENT"]
    let kind = Int(value.c.kind.rawValue)
    return "a value of kind " + (kind < names.count ? names[kind] : "\(kind)")
  }

  /// A new group as an RX_OBSERVABLE value: a handle of its own, held by the value's box.
  static func pack(_ group: GroupedObservable<ValueKey, RxValue>) -> RxValue {
    let p = ObservableHandle.make(group)
    let handle = Unmanaged<ObservableHandle>.fromOpaque(p).takeUnretainedValue()
    let value = RxValue.boxed(ObservableBox.make(handle))
    handle.releaseC()  // the box holds the only C reference now
    return value
  }
}
