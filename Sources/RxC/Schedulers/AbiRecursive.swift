import CRxc
import RxCore

// rxc.h section 8: recursive scheduling.

/// The token of rx_schedule_recursive, which is also the handle its action gets to
/// reschedule itself (rx_recurse accepts only these).
final class RecursiveDisposableHandle: DisposableHandle {
  let chain: RecursiveAction

  init(_ chain: RecursiveAction) {
    self.chain = chain
    super.init(chain)
  }
}

@c(rx_schedule_recursive)
public func rx_schedule_recursive(
  _ scheduler: UnsafeMutablePointer<rx_scheduler>?, _ action: rx_recursive_fn?,
  _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_disposable>? {
  guard let s = SchedulerHandle.from(scheduler, "rx_schedule_recursive") else { return nil }
  guard !closedLoop(s, "rx_schedule_recursive") else { return nil }
  guard let action else {
    setLastError("rx_schedule_recursive: action is NULL")
    return nil
  }
  let context = CContext(ctx, ctxFree)
  let link = ChainLink()
  let chain = RecursiveAction(scheduler: s.scheduler) { _ in action(context.ctx, link.pointer) }
  let h = RecursiveDisposableHandle(chain)
  let token = h.cPointer  // the caller's C reference
  link.hold(h)
  chain.start()
  return token
}

/// The chain's own C reference to its token, dropped when the chain releases its action
/// (ended or disposed): the action's `self` stays a live handle while the chain lives, even
/// after the caller released the token.
private final class ChainLink {
  private var handle: RecursiveDisposableHandle?
  private(set) var pointer: UnsafeMutablePointer<rx_disposable>?

  func hold(_ h: RecursiveDisposableHandle) {
    _ = h.retainC()  // cannot fail: the caller's reference was just made
    handle = h
    pointer = Unmanaged.passUnretained(h).toOpaque().assumingMemoryBound(to: rx_disposable.self)
  }

  deinit { handle?.releaseC() }
}

@c(rx_recurse)
public func rx_recurse(_ me: UnsafeMutablePointer<rx_disposable>?) -> rx_status {
  recurse(me, after: nil, "rx_recurse")
}

@c(rx_recurse_after)
public func rx_recurse_after(_ me: UnsafeMutablePointer<rx_disposable>?, _ delay: Int64) -> rx_status {
  recurse(me, after: delay, "rx_recurse_after")
}

private func recurse(_ p: UnsafeMutablePointer<rx_disposable>?, after delay: Int64?, _ fn: StaticString) -> rx_status {
  guard let h = Validate.handle(p, .disposable, as: RecursiveDisposableHandle.self, fn, "self",
    sortName: "the token of rx_schedule_recursive")
  else { return invalid(p) }
  switch h.chain.recurse(after: delay) {
  case .scheduled: return RX_OK
  case .disposed: return fail(RX_EDISPOSED, "\(fn): the chain was disposed")
  case .ended: return fail(RX_ESTATE, "\(fn): the chain has ended (no run pending or running)")
  }
}
