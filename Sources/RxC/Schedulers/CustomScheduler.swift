import CRxc
@_spi(RxC) import RxCore
import Synchronization

/// rx_scheduler_custom_new: everything the library schedules on it goes through the C
/// vtable. Each action reaches C as `customTrampoline` + a retained `CustomAction`; the
/// library owns that action_ctx and frees it after the call, or when the token the vtable
/// returned is disposed before the call (rxc.h: no call starts after that).
final class CustomScheduler: Scheduler, @unchecked Sendable {
  let vtable: rx_scheduler_vtable
  let context: CContext

  init(_ vtable: rx_scheduler_vtable, _ context: CContext) {
    self.vtable = vtable
    self.context = context
    super.init()
  }

  override var now: Int64 {
    if let f = vtable.now_ns { return f(context.ctx) }
    return MonotonicClock.now()
  }

  override var isSerial: Bool { vtable.serial }

  override func schedule(_ action: @escaping () -> Void) -> any Disposable {
    submit(delay: nil, action)
  }

  override func scheduleAfter(_ delay: Int64, _ action: __owned @escaping () -> Void) -> any Disposable {
    if delay <= 0 { return submit(delay: nil, action) }
    if vtable.schedule_after != nil { return submit(delay: delay, action) }
    // No schedule_after: wait on the library's timer, then hand the action to schedule.
    let slot = SerialDisposable()
    let pending = ScheduledAction { [self] in slot.set(submit(delay: nil, action)) }
    slot.set(pending)
    Timers.schedule(pending, after: delay, on: Timers.inline)
    return slot
  }

  private func submit(delay: Int64?, _ action: @escaping () -> Void) -> any Disposable {
    let item = CustomAction(action)
    let actionCtx = Unmanaged.passRetained(item).toOpaque()
    let token: UnsafeMutablePointer<rx_disposable>?
    if let delay, let after = vtable.schedule_after {
      token = after(context.ctx, delay, customTrampoline, actionCtx)
    } else {
      token = vtable.schedule(context.ctx, customTrampoline, actionCtx)
    }
    item.setToken(token.flatMap { DisposableHandle.take($0, "rx_scheduler_custom_new (schedule result)") })
    return item
  }
}

/// What a custom scheduler's action_ctx points at.
final class CustomAction: Cancelable, @unchecked Sendable {
  private static let entered = 1
  private static let disposed = 2
  private static let hasToken = 4
  private let state = Atomic<Int>(0)
  private var action: (() -> Void)?
  private var token: (any Disposable)?

  init(_ action: @escaping () -> Void) { self.action = action }

  var isDisposed: Bool { state.load(ordering: .acquiring) & (Self.entered | Self.disposed) != 0 }

  func setToken(_ token: (any Disposable)?) {
    guard let token else { return }
    self.token = token
    let old = state.bitwiseOr(Self.hasToken, ordering: .acquiringAndReleasing).oldValue
    if old & Self.disposed != 0 && old & Self.entered == 0 { finishDispose() }
  }

  /// Called through customTrampoline: runs once unless disposed first; then the C
  /// reference goes.
  func enter() {
    let old = state.bitwiseOr(Self.entered, ordering: .acquiringAndReleasing).oldValue
    if old & Self.entered != 0 { return }  // a second call from a broken scheduler
    if old & Self.disposed == 0 {  // else the disposer already dropped the action
      let work = action
      action = nil
      work?()
    }
    Unmanaged.passUnretained(self).release()
  }

  func dispose() {
    let old = state.bitwiseOr(Self.disposed, ordering: .acquiringAndReleasing).oldValue
    if old & (Self.disposed | Self.entered) != 0 { return }
    action = nil
    if old & Self.hasToken != 0 { finishDispose() }
    // Without a token (the vtable returned NULL) the call may still come: it frees us.
  }

  /// The action can no longer be called: dispose the vtable's token, drop C's reference.
  private func finishDispose() {
    let t = token
    token = nil
    t?.dispose()
    Unmanaged.passUnretained(self).release()
  }
}

let customTrampoline: @convention(c) (UnsafeMutableRawPointer?) -> Void = { p in
  guard let p else { return }
  Unmanaged<CustomAction>.fromOpaque(p).takeUnretainedValue().enter()
}
