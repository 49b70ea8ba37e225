/// Element copies into and out of slots (the combining operators', a replay buffer's, an
/// accumulated state), a `Value`'s done by its bits (see `Value`'s layout: plain data
/// copied as it is, a box retained or released by its address): the generic forms are
/// outlined calls per element (a copy, a destroy, each a jump table).
@usableFromInline enum Slot {
  /// The element at `p` is a `Value` that holds no reference.
  @inlinable @inline(__always)
  static func isPlain<T>(_ p: UnsafePointer<T>) -> Bool {
    isValue(T.self) && UnsafeRawPointer(p).load(fromByteOffset: 8, as: UInt8.self) != Value.boxedTag
  }

  @inlinable @inline(__always)
  static func copyBits<T>(_ slot: UnsafeMutablePointer<T>, _ element: UnsafePointer<T>) {
    let to = UnsafeMutableRawPointer(slot), from = UnsafeRawPointer(element)
    to.storeBytes(of: from.load(as: UInt64.self), as: UInt64.self)
    to.storeBytes(of: from.load(fromByteOffset: 8, as: UInt8.self), toByteOffset: 8, as: UInt8.self)
  }

  /// Initializes the uninitialized `slot` with a copy of the element at `element`.
  @inlinable @inline(__always)
  static func initialize<T>(_ slot: UnsafeMutablePointer<T>, copying element: UnsafePointer<T>) {
    guard isValue(T.self) else { return slot.initialize(to: element.pointee) }
    if let box = box(element) { box.retain() }
    copyBits(slot, element)
  }

  /// Fills the uninitialized `slot` with the bits of the element at `element`, not copied
  /// (no retain): the caller's, lent while it stays valid; never destroyed from `slot`.
  @inlinable @inline(__always)
  static func lend<T>(_ slot: UnsafeMutablePointer<T>, _ element: UnsafePointer<T>) {
    if isValue(T.self) { return copyBits(slot, element) }
    UnsafeMutableRawPointer(slot).copyMemory(from: element, byteCount: MemoryLayout<T>.size)
  }

  /// Replaces the element in `slot` with a copy of the one at `element`.
  @inlinable @inline(__always)
  static func assign<T>(_ slot: UnsafeMutablePointer<T>, copying element: UnsafePointer<T>) {
    guard isValue(T.self) else { return slot.pointee = element.pointee }
    if let box = box(element) { box.retain() }  // first: it may be the box the slot holds
    destroy(slot)
    copyBits(slot, element)
  }

  /// Replaces the element in `slot` with `element`, taken as it is (no copy).
  @inlinable @inline(__always)
  static func assign<T>(_ slot: UnsafeMutablePointer<T>, taking element: consuming T) {
    guard isValue(T.self) else { return slot.pointee = element }
    destroy(slot)
    slot.initialize(to: element)
  }

  /// Deinitializes `slot`. A `Value`'s box is released by its address: the compiler's
  /// destroy of a Value is an outlined call into its value witness (20 instructions).
  @inlinable @inline(__always)
  static func destroy<T>(_ slot: UnsafeMutablePointer<T>) {
    guard isValue(T.self) else {
      _ = slot.deinitialize(count: 1)
      return
    }
    if let box = box(UnsafePointer(slot)) { box.release() }
  }

  /// Replaces the optional element in `slot` with a copy of the one at `element`. An
  /// `Optional<Value>` is a `Value`'s nine bytes, nil one more tag, so the bit-level
  /// forms read it as they read a `Value`.
  @inlinable @inline(__always)
  static func assign<T>(_ slot: UnsafeMutablePointer<T?>, copying element: UnsafePointer<T>) {
    guard isValue(T.self) && MemoryLayout<T?>.size == 9 else { return slot.pointee = element.pointee }
    if let box = box(element) { box.retain() }  // first: it may be the box the slot holds
    if let old = box(UnsafePointer(slot)) { old.release() }
    UnsafeMutableRawPointer(slot).copyMemory(from: element, byteCount: 9)
  }

  /// Deinitializes `count` slots from `first`.
  @inlinable @inline(__always)
  static func destroy<T>(_ first: UnsafeMutablePointer<T>, count: Int) {
    guard isValue(T.self) else {
      _ = first.deinitialize(count: count)
      return
    }
    for i in 0..<count { destroy(first + i) }
  }

  /// T is `Value`, in the layout the bit-level forms read.
  @inlinable @inline(__always)
  static func isValue<T>(_: T.Type) -> Bool { T.self == Value.self && MemoryLayout<Value>.size == 9 }

  /// The box of the `Value` at `p` (see `isValue`), not retained; nil for plain data.
  @inlinable @inline(__always)
  static func box<T>(_ p: UnsafePointer<T>) -> Unmanaged<AnyObject>? {
    let raw = UnsafeRawPointer(p)
    guard raw.load(fromByteOffset: 8, as: UInt8.self) == Value.boxedTag else { return nil }
    return Unmanaged.fromOpaque(raw.load(as: UnsafeRawPointer.self))
  }
}
