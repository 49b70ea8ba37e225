import CRxc

/// A C callback context with its destructor. Everything that can still call into `ctx`
/// holds this object, so ARC runs `ctx_free` exactly once, after the last possible use.
final class CContext: @unchecked Sendable {
  let ctx: UnsafeMutableRawPointer?
  let free: rx_free_fn?

  init(_ ctx: UnsafeMutableRawPointer?, _ free: rx_free_fn?) {
    self.ctx = ctx
    self.free = free
  }

  deinit { free?(ctx) }
}
