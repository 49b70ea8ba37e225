import CRxc
@_spi(RxC) import RxCore
import Synchronization

/// One rx_using subscription's resource: the pointer the C create function returned, freed
/// by the C release function exactly once, when the subscription ends (or, should the
/// subscription never dispose it, when the last reference goes). Holds the CContext, so
/// ctx_free waits for the release.
final class CResource: Disposable, @unchecked Sendable {
  let pointer: UnsafeMutableRawPointer?
  private let release: rx_resource_free_fn?
  private let context: CContext
  private let released = Atomic<Bool>(false)

  init(_ pointer: UnsafeMutableRawPointer?, release: rx_resource_free_fn?, context: CContext) {
    Resources.increment()
    self.pointer = pointer
    self.release = release
    self.context = context
  }

  func dispose() {
    if released.exchange(true, ordering: .acquiringAndReleasing) { return }
    release?(context.ctx, pointer)
  }

  deinit {
    dispose()
    Resources.decrement()
  }
}
