import CRxc

/// Entry checks. Each returns the object (borrowed from C's reference) or sets
/// rx_last_error() and returns nil. Reads 16 bytes past the object header: enough for any
/// pointer into readable memory; a wild pointer into unmapped memory cannot be caught.
@_spi(RxC) public enum Validate {
  public static func object(_ p: UnsafeRawPointer?, _ kind: ObjectKind, _ fn: StaticString, _ arg: StaticString)
    -> AbiObject?
  {
    unretainedObject(p, kind, fn, arg)?.takeUnretainedValue()
  }

  /// `object`, not retained: for a caller that borrows it under C's reference.
  public static func unretainedObject(_ p: UnsafeRawPointer?, _ kind: ObjectKind, _ fn: StaticString, _ arg: StaticString)
    -> Unmanaged<AbiObject>?
  {
    guard let p else {
      setLastError("\(fn): \(arg) is NULL")
      return nil
    }
    if UInt(bitPattern: p) & 15 != 0 {
      setLastError("\(fn): \(arg) is not a librxc handle (misaligned pointer)")
      return nil
    }
    let magic = p.load(fromByteOffset: AbiObject.magicOffset, as: UInt64.self)
    if magic != AbiObject.liveMagic {
      if magic == AbiObject.deadMagic {
        setLastError("\(fn): \(arg) was already released (use after release)")
      } else {
        setLastError("\(fn): \(arg) is not a librxc handle")
      }
      return nil
    }
    let k = p.load(fromByteOffset: AbiObject.kindOffset, as: UInt32.self)
    if k != kind.rawValue {
      let actual = ObjectKind(rawValue: k).name
      setLastError("\(fn): \(arg) is a \(actual), expected \(kind.name)")
      return nil
    }
    if kind == .disposable && ObserverEnd.isToken(p) {  // only a .disposable can be a token
      setLastError("\(fn): \(arg) is a subscription token, not a \(kind.name) of the expected sort")
      return nil
    }
    return Unmanaged<AbiObject>.fromOpaque(p)
  }

  /// Whether `p` points at a live handle of `kind`, without setting an error.
  @inline(__always)
  /// A versioned struct's `struct_size` (its first field, a size_t): the size the caller
  /// declared, or nil (and rx_last_error()) when NULL or below `known`, this library's size
  /// of the struct. Fields added later go at the end, so a larger size is the caller's.
  public static func structSize(_ p: UnsafeRawPointer?, known: Int, _ fn: StaticString, _ arg: StaticString, _ type: StaticString)
    -> Int?
  {
    guard let p else {
      setLastError("\(fn): \(arg) is NULL")
      return nil
    }
    let declared = p.load(as: Int.self)
    guard declared >= known else {
      setLastError("\(fn): \(arg)->struct_size \(declared) is below sizeof(\(type)) \(known)")
      return nil
    }
    return declared
  }

  /// False (and rx_last_error()) when a newer caller set fields of a versioned struct that
  /// this library does not know: bytes `known..<size` must be zero.
  public static func unknownFieldsZero(_ p: UnsafeRawPointer, known: Int, size: Int, _ fn: StaticString, _ arg: StaticString)
    -> Bool
  {
    let bytes = p.assumingMemoryBound(to: UInt8.self)
    for i in known..<size where bytes[i] != 0 {
      setLastError("\(fn): \(arg) has fields this library does not know (struct_size \(size)) set")
      return false
    }
    return true
  }

  public static func isLive(_ p: UnsafeRawPointer, _ kind: ObjectKind) -> Bool {
    UInt(bitPattern: p) & 15 == 0
      && p.load(fromByteOffset: AbiObject.magicOffset, as: UInt64.self) == AbiObject.liveMagic
      && p.load(fromByteOffset: AbiObject.kindOffset, as: UInt32.self) == kind.rawValue
  }

  /// Any live ABI object, whatever its kind (rx_retain / rx_release).
  public static func anyObject(_ p: UnsafeRawPointer?, _ fn: StaticString) -> AbiObject? {
    guard let p else {
      setLastError("\(fn): handle is NULL")
      return nil
    }
    if UInt(bitPattern: p) & 15 != 0 {
      setLastError("\(fn): not a librxc handle (misaligned pointer)")
      return nil
    }
    let magic = p.load(fromByteOffset: AbiObject.magicOffset, as: UInt64.self)
    guard magic == AbiObject.liveMagic else {
      setLastError(magic == AbiObject.deadMagic
        ? "\(fn): handle was already released (double release or use after release)"
        : "\(fn): not a librxc handle")
      return nil
    }
    precondition(!ObserverEnd.isToken(p), "a subscription token is not an AbiObject (callers take tokens first)")
    return Unmanaged<AbiObject>.fromOpaque(p).takeUnretainedValue()
  }

  /// A handle of `kind` that must also be of class `T` (its "sort": a serial disposable, a
  /// test scheduler, a behavior subject...). Wrong sort is RX_EHANDLE.
  public static func handle<T: AbiObject>(
    _ p: UnsafeRawPointer?, _ kind: ObjectKind, as type: T.Type, _ fn: StaticString,
    _ arg: StaticString, sortName: StaticString? = nil
  ) -> T? {
    guard let object = Validate.object(p, kind, fn, arg) else { return nil }
    guard let typed = object as? T else {
      setLastError("\(fn): \(arg) is a \(kind.name) of the wrong sort\(sortName.map { ", expected \($0)" } ?? "")")
      return nil
    }
    return typed
  }
}

@_spi(RxC) extension Validate {
  /// The same checks as `object`, returning the pointer rather than a Swift reference, for
  /// hot paths that reach the object with `_withUnsafeGuaranteedRef` (no retain/release).
  /// Only for kinds whose every object is of one final class (e.g. `.subject`).
  @inlinable @inline(__always)
  public static func pointer(_ p: UnsafeRawPointer?, _ kind: ObjectKind, _ fn: StaticString, _ arg: StaticString)
    -> UnsafeRawPointer?
  {
    if let p, UInt(bitPattern: p) & 15 == 0,
      p.load(fromByteOffset: AbiObject.magicOffset, as: UInt64.self) == AbiObject.liveMagic,
      p.load(fromByteOffset: AbiObject.kindOffset, as: UInt32.self) == kind.rawValue
    {
      return p
    }
    _ = object(p, kind, fn, arg)  // sets the message
    return nil
  }

  /// `handle(p, kind, as: T.self, ...)` for a final class `T`, run on the object borrowed
  /// from C's reference (no retain/release, no dynamic cast: the class is compared); nil
  /// (and rx_last_error()) as `handle` would.
  @inlinable @inline(__always)
  public static func borrowing<T: AbiObject, R>(
    _ p: UnsafeRawPointer?, _ kind: ObjectKind, as type: T.Type, _ fn: StaticString, _ arg: StaticString,
    sortName: StaticString, _ body: (T) -> R
  ) -> R? {
    if let q = pointer(p, kind, fn, arg) {
      let object = Unmanaged<AbiObject>.fromOpaque(q)
      if object._withUnsafeGuaranteedRef({ ObjectIdentifier(Swift.type(of: $0)) == ObjectIdentifier(T.self) }) {
        return Unmanaged<T>.fromOpaque(q)._withUnsafeGuaranteedRef(body)
      }
    }
    _ = handle(p, kind, as: type, fn, arg, sortName: sortName)  // sets the message
    return nil
  }
}
