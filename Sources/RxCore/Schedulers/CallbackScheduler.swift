import Synchronization

/// A scheduler whose work is handed to its owner's callbacks (the C layer's
/// rx_scheduler_custom_new). Each action goes out as a `CallbackAction`, which the owner
/// enters once (`enter`) or never; disposing it first means no call starts after that, and
/// the disposable the callback returned is disposed then.
@_spi(RxC) public final class CallbackScheduler: Scheduler, @unchecked Sendable {
  public struct Callbacks {
    /// The clock, or nil for the monotonic clock.
    public var now: (() -> Int64)?
    public var serial: Bool
    /// Hands `action` on to run as soon as possible; returns what cancels that, if anything.
    public var schedule: (CallbackAction) -> (any Disposable)?
    /// Hands `action` on to run after a delay (ns), or nil: the library's timer waits, then
    /// `schedule` gets it.
    public var scheduleAfter: ((Int64, CallbackAction) -> (any Disposable)?)?

    public init(now: (() -> Int64)?, serial: Bool, schedule: @escaping (CallbackAction) -> (any Disposable)?,
                scheduleAfter: ((Int64, CallbackAction) -> (any Disposable)?)?)
    {
      self.now = now
      self.serial = serial
      self.schedule = schedule
      self.scheduleAfter = scheduleAfter
    }
  }

  let callbacks: Callbacks

  public init(_ callbacks: Callbacks) {
    self.callbacks = callbacks
    super.init()
  }

  public override var now: Int64 { callbacks.now?() ?? MonotonicClock.now() }

  public override var isSerial: Bool { callbacks.serial }

  public override func schedule(_ action: @escaping () -> Void) -> any Disposable {
    submit(delay: nil, action)
  }

  public override func scheduleAfter(_ delay: Int64, _ action: __owned @escaping () -> Void) -> any Disposable {
    if delay <= 0 { return submit(delay: nil, action) }
    if callbacks.scheduleAfter != nil { return submit(delay: delay, action) }
    // No scheduleAfter: wait on the library's timer, then hand the action to schedule.
    let slot = SerialDisposable()
    let pending = ScheduledAction { [self] in slot.set(submit(delay: nil, action)) }
    slot.set(pending)
    Timers.schedule(pending, after: delay, on: Timers.inline)
    return slot
  }

  private func submit(delay: Int64?, _ action: @escaping () -> Void) -> any Disposable {
    let item = CallbackAction(action)
    // The owner's reference, dropped by `enter` or by the dispose that makes the call moot.
    _ = Unmanaged.passRetained(item)
    if let delay, let after = callbacks.scheduleAfter {
      item.setToken(after(delay, item))
    } else {
      item.setToken(callbacks.schedule(item))
    }
    return item
  }
}

/// One action of a `CallbackScheduler`, as its owner holds it: one reference of the owner's,
/// given back by `enter`, or by a dispose that comes first once the owner's disposable is
/// known (without one, the call may still come, and frees it).
@_spi(RxC) public final class CallbackAction: Cancelable, @unchecked Sendable {
  private static let entered = 1
  private static let disposed = 2
  private static let hasToken = 4
  private let state = Atomic<Int>(0)
  private var action: (() -> Void)?
  private var token: (any Disposable)?

  init(_ action: @escaping () -> Void) { self.action = action }

  public var isDisposed: Bool { state.load(ordering: .acquiring) & (Self.entered | Self.disposed) != 0 }

  func setToken(_ token: (any Disposable)?) {
    guard let token else { return }
    self.token = token
    let old = state.bitwiseOr(Self.hasToken, ordering: .acquiringAndReleasing).oldValue
    if old & Self.disposed != 0 && old & Self.entered == 0 { finishDispose() }
  }

  /// The owner's call: runs once unless disposed first; then the owner's reference goes.
  public func enter() {
    let old = state.bitwiseOr(Self.entered, ordering: .acquiringAndReleasing).oldValue
    if old & Self.entered != 0 { return }  // a second call from a broken scheduler
    if old & Self.disposed == 0 {  // else the disposer already dropped the action
      let work = action
      action = nil
      work?()
    }
    Unmanaged.passUnretained(self).release()
  }

  public func dispose() {
    let old = state.bitwiseOr(Self.disposed, ordering: .acquiringAndReleasing).oldValue
    if old & (Self.disposed | Self.entered) != 0 { return }
    action = nil
    if old & Self.hasToken != 0 { finishDispose() }
  }

  /// The action can no longer be called: dispose the owner's token, drop its reference.
  private func finishDispose() {
    let t = token
    token = nil
    t?.dispose()
    Unmanaged.passUnretained(self).release()
  }
}
