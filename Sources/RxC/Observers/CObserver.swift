import CRxc
import RxCore
import Synchronization

/// The end of every subscription made from C: calls the rx_observer's function pointers and
/// keeps the contract's promises about them:
/// - callbacks of one subscription never overlap, and none starts once disposal has begun;
/// - on_disposed runs exactly once, after every other callback: on the thread that delivers
///   the terminal event or disposes, or, if a callback is running elsewhere at that moment,
///   on that thread right after it returns.
/// A small atomic state word does this without locks: a BUSY count while a callback runs,
/// STOPPED once no more events may start, PENDING when a disposer left on_disposed to the
/// busy thread, FINAL once on_disposed has been claimed, DISPOSED once the token was disposed.
///
/// It is also what an rx_subscribe token disposes (the subscription itself), so a
/// subscription is one object, not two: first the upstream subscription (so taps made by
/// rx_do see the dispose, and run their on_disposed, before this observer's), then the
/// observer, before returning, so no callback starts after rx_dispose returns.
final class CObserver: Observer<RxValue>, Cancelable {
  /// BUSY is a count in the high bits (one locked add in, one out; it can only exceed 1 if
  /// a source ever delivered re-entrantly), the flags are the low bits.
  private static let busy: UInt32 = 1 << 8
  private static let busyMask: UInt32 = ~0xFF
  private static let stopped: UInt32 = 2
  private static let pending: UInt32 = 4
  private static let final: UInt32 = 8
  private static let disposed: UInt32 = 16

  let callbacks: rx_observer
  private let state = Atomic<UInt32>(0)
  /// Set once by `attach` before the token exists; afterwards read only by the one `dispose`
  /// that wins the DISPOSED bit.
  private var upstream: (any Disposable)?

  init(_ callbacks: rx_observer) {
    self.callbacks = callbacks
    super.init()
    Resources.increment()
  }

  deinit { Resources.decrement() }

  var isStopped: Bool { state.load(ordering: .acquiring) & Self.stopped != 0 }

  override var wantsNoMoreEvents: Bool { isStopped }

  override func on(_ event: Event<RxValue>) {
    // Enter and leave with one locked add each (no CAS loop). Once STOPPED, the callback is
    // skipped; a disposer that saw us BUSY left on_disposed to the outermost leave (PENDING).
    switch event {
    case .next(let value):
      if state.wrappingAdd(Self.busy, ordering: .acquiringAndReleasing).oldValue & Self.stopped == 0 {
        callbacks.on_next?(callbacks.ctx, value.c)
      }
      leave()
    case .error, .completed:
      stop(with: event)
    }
  }

  /// A terminal event: stops everything after it and owes on_disposed (PENDING) to the
  /// outermost leave.
  private func stop(with event: Event<RxValue>) {
    var s = state.load(ordering: .relaxed)
    while true {
      if s & Self.stopped != 0 { return }
      let r = state.compareExchange(
        expected: s, desired: (s + Self.busy) | Self.stopped | Self.pending,
        ordering: .acquiringAndReleasing)
      if r.exchanged { break }
      s = r.original
    }
    switch event {
    case .next: break
    case .error(let error):
      let e = ErrorObject.from(error)
      callbacks.on_error?(callbacks.ctx, e.cPointer)
      withExtendedLifetime(e) {}
    case .completed:
      callbacks.on_completed?(callbacks.ctx)
    }
    leave()
  }

  /// The end of a callback: the outermost one runs on_disposed if it is owed (PENDING).
  @inline(__always)
  private func leave() {
    let left = state.wrappingSubtract(Self.busy, ordering: .acquiringAndReleasing).oldValue
    if left & Self.pending != 0 && left & Self.busyMask == Self.busy { claimFinal() }
  }

  /// Runs on_disposed unless someone already did: callers have seen that it is theirs to run
  /// (a terminal event, or PENDING left by a disposer), possibly more than one of them.
  private func claimFinal() {
    if state.bitwiseOr(Self.final, ordering: .acquiringAndReleasing).oldValue & Self.final == 0 {
      callbacks.on_disposed?(callbacks.ctx)
    }
  }

  /// The subscription is ending without (another) event: dispose, or the source dropped us.
  func finish() {
    var s = state.load(ordering: .relaxed)
    while true {
      if s & (Self.final | Self.pending) != 0 { return }
      let desired = s & Self.busyMask != 0 ? s | Self.stopped | Self.pending : s | Self.stopped | Self.final
      let r = state.compareExchange(expected: s, desired: desired, ordering: .acquiringAndReleasing)
      if r.exchanged {
        if desired & Self.final != 0 { callbacks.on_disposed?(callbacks.ctx) }
        return
      }
      s = r.original
    }
  }

  override func dropped() { finish() }

  /// The upstream subscription this observer's token disposes. Called once, by subscribeC,
  /// before the token exists.
  func attach(_ upstream: any Disposable) { self.upstream = upstream }

  var isDisposed: Bool { state.load(ordering: .acquiring) & (Self.stopped | Self.disposed) != 0 }

  /// Cancels the subscription: upstream first, then the observer. Idempotent.
  func dispose() {
    if state.bitwiseOr(Self.disposed, ordering: .acquiringAndReleasing).oldValue & Self.disposed != 0 {
      return
    }
    let u = upstream
    upstream = nil
    u?.dispose()
    finish()
  }
}
