/// What a boxed `Value` needs to be a dictionary key: equality and hashing by content. The
/// core never looks into boxes, so whoever makes them (the C layer's strings and bytes)
/// conforms the kinds that may be keys.
public protocol ContentKey: AnyObject {
  /// True when `other` has the same kind and content (false for any other class).
  func keyEquals(_ other: AnyObject) -> Bool
  /// Feeds what `keyEquals` compares into `hasher`.
  func hashKey(into hasher: inout Hasher)
}

extension ContentKey {
  // Reached through the key's stored class with both boxes unretained: a box read out of a
  // key in memory (a group table's entry) would otherwise be retained around every compare.
  @inlinable static func contentEquals(_ a: Unmanaged<AnyObject>, _ b: Unmanaged<AnyObject>) -> Bool {
    a._withUnsafeGuaranteedRef { x in b._withUnsafeGuaranteedRef { y in unsafeDowncast(x, to: Self.self).keyEquals(y) } }
  }

  @inlinable static func hashContent(_ a: Unmanaged<AnyObject>, into hasher: inout Hasher) {
    a._withUnsafeGuaranteedRef { unsafeDowncast($0, to: Self.self).hashKey(into: &hasher) }
  }
}

/// A `Value` as a dictionary key (groupBy's keys for `Value` elements): ints, bools and
/// pointers by their bits, doubles by value (so 0.0 and -0.0 are one key), boxes that
/// conform to `ContentKey` by their content. Values of different cases are different keys
/// (1 and 1.0 too), as for the C layer's `rx_value_equal`.
public struct ValueKey: Hashable {
  /// Which case the key is: the `Value` case's number for plain values, `content` for a box.
  @usableFromInline let kind: UInt8
  /// A plain value's bits (a double's with -0.0 made 0.0, so equal keys have equal bits), or
  /// a boxed key's address (compared and hashed through `contentType`, unretained).
  @usableFromInline let bits: UInt64
  /// A boxed key's class; nil for a plain key.
  @usableFromInline let contentType: (any ContentKey.Type)?
  /// A boxed key's box, kept alive by the key; nil for a plain key.
  @usableFromInline let box: AnyObject?

  @usableFromInline static var int: UInt8 { 1 }
  @usableFromInline static var double: UInt8 { 2 }
  @usableFromInline static var bool: UInt8 { 3 }
  @usableFromInline static var ptr: UInt8 { 4 }
  @usableFromInline static var content: UInt8 { 5 }

  /// A plain value as a key; nil for `.none`, a boxed value (those come through
  /// `init(content:)`) and NaN (it equals nothing, not even itself, so it could never find
  /// its group again).
  @inlinable public init?(_ value: Value) {
    switch value {
    case .int(let i): (kind, bits) = (Self.int, UInt64(bitPattern: i))
    case .double(let d):
      if d.isNaN { return nil }
      (kind, bits) = (Self.double, d == 0 ? 0 : d.bitPattern)
    case .bool(let b): (kind, bits) = (Self.bool, b ? 1 : 0)
    case .ptr(let p): (kind, bits) = (Self.ptr, UInt64(UInt(bitPattern: p)))
    case .none, .boxed: return nil
    }
    contentType = nil
    box = nil
  }

  /// A boxed value, keyed by its content.
  @inlinable public init(content: any ContentKey) {
    kind = Self.content
    bits = UInt64(UInt(bitPattern: Unmanaged.passUnretained(content as AnyObject).toOpaque()))
    contentType = type(of: content)
    box = content
  }

  /// The boxed key's box, unretained (the key holds it).
  @inlinable var unretainedBox: Unmanaged<AnyObject> {
    Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: UInt(bits)).unsafelyUnwrapped)
  }

  /// The key as a value (the box itself for a boxed key).
  @inlinable public var value: Value {
    switch kind {
    case Self.int: return .int(Int64(bitPattern: bits))
    case Self.double: return .double(Double(bitPattern: bits))
    case Self.bool: return .bool(bits != 0)
    case Self.ptr: return .ptr(UnsafeMutableRawPointer(bitPattern: UInt(bits)))
    default: return .boxed(box.unsafelyUnwrapped)
    }
  }

  @inlinable public static func == (a: ValueKey, b: ValueKey) -> Bool {
    guard a.kind == b.kind else { return false }
    guard a.kind == Self.content, a.bits != b.bits else { return a.bits == b.bits }
    return a.contentType.unsafelyUnwrapped.contentEquals(a.unretainedBox, b.unretainedBox)
  }

  @inlinable public func hash(into hasher: inout Hasher) {
    hasher.combine(kind)
    if kind == Self.content {
      contentType.unsafelyUnwrapped.hashContent(unretainedBox, into: &hasher)
    } else {
      hasher.combine(bits)
    }
  }
}
