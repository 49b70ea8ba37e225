import CRxc

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
