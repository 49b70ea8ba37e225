import CRxc

/// A C callback context with its destructor. Everything that can still call into `ctx`
/// holds this object, so ARC runs `ctx_free` exactly once, after the last possible use.
@_spi(RxC) public final class CContext: @unchecked Sendable {
  public let ctx: UnsafeMutableRawPointer?
  public let free: rx_free_fn?

  public init(_ ctx: UnsafeMutableRawPointer?, _ free: rx_free_fn?) {
    self.ctx = ctx
    self.free = free
  }

  deinit { free?(ctx) }
}
