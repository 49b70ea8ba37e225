import CRxc

/// Keeps `object` in one of this thread's spare slots (Sources/CRxc/spare_handles.c) with
/// `put`, setting the thread-exit hook that releases spares first if it is not set yet.
/// False when it cannot: the caller releases the object instead.
@inline(__always)
@_spi(RxC) public func keepAsSpare(_ object: UnsafeMutableRawPointer, _ put: (UnsafeMutableRawPointer?) -> Bool) -> Bool {
  if put(object) { return true }
  return !rxc_spare_hooked() && rxc_spare_hook({ Unmanaged<AnyObject>.fromOpaque($0!).release() }) && put(object)
}
