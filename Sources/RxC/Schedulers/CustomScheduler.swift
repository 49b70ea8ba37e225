import CRxc
@_spi(RxC) import RxCore

/// rx_scheduler_custom_new: the core's `CallbackScheduler` over the C vtable. Each action
/// reaches C as `customTrampoline` + the action, which holds one reference for C (rxc.h: the
/// library frees that action_ctx after the call, or when the token the vtable returned is
/// disposed before the call).
enum CustomScheduler {
  static func make(_ vtable: rx_scheduler_vtable, _ context: CContext) -> CallbackScheduler {
    let now = vtable.now_ns.map { f in { f(context.ctx) } }
    let schedule = vtable.schedule.unsafelyUnwrapped  // checked non-NULL by the caller
    let after = vtable.schedule_after.map { after in
      { (delay: Int64, action: CallbackAction) in
        token(after(context.ctx, delay, customTrampoline, Unmanaged.passUnretained(action).toOpaque()))
      }
    }
    return CallbackScheduler(.init(
      now: now, serial: vtable.serial,
      schedule: { token(schedule(context.ctx, customTrampoline, Unmanaged.passUnretained($0).toOpaque())) },
      scheduleAfter: after))
  }

  private static func token(_ p: UnsafeMutablePointer<rx_disposable>?) -> (any Disposable)? {
    p.flatMap { DisposableHandle.take($0, "rx_scheduler_custom_new (schedule result)") }
  }
}

let customTrampoline: @convention(c) (UnsafeMutableRawPointer?) -> Void = { p in
  guard let p else { return }
  Unmanaged<CallbackAction>.fromOpaque(p).takeUnretainedValue().enter()
}
