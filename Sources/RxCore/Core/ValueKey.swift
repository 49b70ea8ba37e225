/// What a boxed `Value` needs to be a dictionary key: equality and hashing by content. The
/// core never looks into boxes, so whoever makes them (the C layer's strings and bytes)
/// conforms the kinds that may be keys.
public protocol ContentKey: AnyObject {
  /// True when `other` has the same kind and content (false for any other class).
  func keyEquals(_ other: any ContentKey) -> Bool
  /// Feeds what `keyEquals` compares into `hasher`.
  func hashKey(into hasher: inout Hasher)
}

/// A `Value` as a dictionary key (groupBy's keys for `Value` elements): ints, bools and
/// pointers by their bits, doubles by value (so 0.0 and -0.0 are one key), boxes that
/// conform to `ContentKey` by their content. Values of different cases are different keys
/// (1 and 1.0 too), as for the C layer's `rx_value_equal`.
public struct ValueKey: Hashable {
  @usableFromInline enum Storage {
    case plain(Value)
    case content(any ContentKey)
  }
  @usableFromInline let storage: Storage

  /// A plain value as a key; nil for `.none`, a boxed value (those come through
  /// `init(content:)`) and NaN (it equals nothing, not even itself, so it could never find
  /// its group again).
  @inlinable public init?(_ value: Value) {
    switch value {
    case .int, .bool, .ptr: break
    case .double(let d): if d.isNaN { return nil }
    case .none, .boxed: return nil
    }
    storage = .plain(value)
  }

  /// A boxed value, keyed by its content.
  @inlinable public init(content: any ContentKey) {
    storage = .content(content)
  }

  /// The key as a value (the box itself for a boxed key).
  @inlinable public var value: Value {
    switch storage {
    case .plain(let v): return v
    case .content(let box): return .boxed(box)
    }
  }

  @inlinable public static func == (a: ValueKey, b: ValueKey) -> Bool {
    switch (a.storage, b.storage) {
    case (.plain(let x), .plain(let y)):
      switch (x, y) {
      case (.int(let p), .int(let q)): return p == q
      case (.double(let p), .double(let q)): return p == q
      case (.bool(let p), .bool(let q)): return p == q
      case (.ptr(let p), .ptr(let q)): return p == q
      default: return false
      }
    case (.content(let x), .content(let y)): return x === y || x.keyEquals(y)
    default: return false
    }
  }

  @inlinable public func hash(into hasher: inout Hasher) {
    switch storage {
    case .plain(let v):
      switch v {
      case .int(let i): hasher.combine(1 as UInt8); hasher.combine(i)
      case .double(let d): hasher.combine(2 as UInt8); hasher.combine(d)
      case .bool(let b): hasher.combine(3 as UInt8); hasher.combine(b)
      case .ptr(let p): hasher.combine(4 as UInt8); hasher.combine(p)
      case .none, .boxed: hasher.combine(0 as UInt8)
      }
    case .content(let box):
      hasher.combine(5 as UInt8)
      box.hashKey(into: &hasher)
    }
  }
}
