import CRxc

/// Typed views of `rx_value`'s payload (`i`, 64 bits): the C header has no union, so the
/// double, bool, pointer and box readings are bit casts of the one integer.
extension rx_value {
  @inline(__always) var d: Double {
    get { Double(bitPattern: UInt64(bitPattern: i)) }
    set { i = Int64(bitPattern: newValue.bitPattern) }
  }

  @inline(__always) var b: Bool {
    get { i != 0 }
    set { i = newValue ? 1 : 0 }
  }

  @inline(__always) var ptr: UnsafeMutableRawPointer? {
    get { UnsafeMutableRawPointer(bitPattern: Int(truncatingIfNeeded: i)) }
    set { i = Int64(Int(bitPattern: newValue)) }
  }

  /// The address of a boxed value's box (kinds RX_STRING and after).
  @inline(__always) var box: UnsafeRawPointer? {
    get { UnsafeRawPointer(bitPattern: Int(truncatingIfNeeded: i)) }
    set { i = Int64(Int(bitPattern: newValue)) }
  }
}
