import CRxc
@_spi(RxC) import RxCore

// rxc.h section 9, traits: the primitive-sequence traits (Single, Maybe, Completable) and
// their subscribe functions.

// rx:export rx_as_single: ObservableHandle.make(src.observable.asSingle())
// rx:export rx_as_maybe: ObservableHandle.make(src.observable.asMaybe())
// rx:export rx_as_completable: ObservableHandle.make(src.observable.asCompletable())

public typealias CValueFn = @convention(c) (UnsafeMutableRawPointer?, rx_value) -> Void
public typealias CErrorFn = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<rx_error>?) -> Void
public typealias CCtxFn = @convention(c) (UnsafeMutableRawPointer?) -> Void

// A single's element comes with its completion, so on_success is the observer's on_next
// and the completion needs no callback: the user's functions and ctx go through as they are.
@c(rx_subscribe_single)
public func rx_subscribe_single(
  _ src: UnsafeMutablePointer<rx_observable>?, _ onSuccess: CValueFn?, _ onError: CErrorFn?,
  _ ctx: UnsafeMutableRawPointer?, _ onDisposed: CCtxFn?
) -> UnsafeMutablePointer<rx_disposable>? {
  subscribe(src, "rx_subscribe_single", { $0.asSingle() }) {
    rx_observer(on_next: onSuccess, on_error: onError, on_completed: nil, on_disposed: onDisposed, ctx: ctx)
  }
}

@c(rx_subscribe_completable)
public func rx_subscribe_completable(
  _ src: UnsafeMutablePointer<rx_observable>?, _ onCompleted: CCtxFn?, _ onError: CErrorFn?,
  _ ctx: UnsafeMutableRawPointer?, _ onDisposed: CCtxFn?
) -> UnsafeMutablePointer<rx_disposable>? {
  subscribe(src, "rx_subscribe_completable", { $0.asCompletable() }) {
    rx_observer(on_next: nil, on_error: onError, on_completed: onCompleted, on_disposed: onDisposed, ctx: ctx)
  }
}

@c(rx_subscribe_maybe)
public func rx_subscribe_maybe(
  _ src: UnsafeMutablePointer<rx_observable>?, _ onSuccess: CValueFn?, _ onError: CErrorFn?,
  _ onCompleted: CCtxFn?, _ ctx: UnsafeMutableRawPointer?, _ onDisposed: CCtxFn?
) -> UnsafeMutablePointer<rx_disposable>? {
  subscribe(src, "rx_subscribe_maybe", { $0.asMaybe() }) {
    let box = CMaybe(CMaybeHandlers(onSuccess: onSuccess, onCompleted: onCompleted, onError: onError, onDisposed: onDisposed, ctx: ctx))
    return rx_observer(
      on_next: maybeSuccess, on_error: maybeError, on_completed: maybeCompleted, on_disposed: maybeDisposed,
      ctx: Unmanaged.passRetained(box).toOpaque())
  }
}

/// Subscribes `observer()` (made only for a valid src: nothing to free otherwise) to src
/// under a trait's contract.
private func subscribe(
  _ src: UnsafeMutablePointer<rx_observable>?, _ fn: StaticString,
  _ trait: (Observable<RxValue>) -> Observable<RxValue>, _ observer: () -> rx_observer
) -> UnsafeMutablePointer<rx_disposable>? {
  guard let h = ObservableHandle.from(src, fn) else { return nil }
  return subscribeC(trait(h.observable), observer())
}

/// rx_subscribe_maybe's handlers: the user's functions and ctx. The rule between them and
/// the subscription (no completion after a success) is the core's `MaybeSubscriber`, which
/// the subscription's ctx points at (its one reference, taken by `maybeDisposed`).
private struct CMaybeHandlers: MaybeHandlers {
  let onSuccess: CValueFn?
  let onCompleted: CCtxFn?
  let onError: CErrorFn?
  let onDisposed: CCtxFn?
  let ctx: UnsafeMutableRawPointer?

  func success(_ value: rx_value) { onSuccess?(ctx, value) }
  func completed() { onCompleted?(ctx) }
  func failed(_ error: UnsafePointer<rx_error>?) { onError?(ctx, error) }
  func disposed() { onDisposed?(ctx) }
}

private typealias CMaybe = MaybeSubscriber<CMaybeHandlers>

/// The subscriber behind `p`, borrowed for `body` (the subscription's reference keeps it:
/// taken as a strong reference, it was retained and released around each callback).
@inline(__always)
private func withMaybe(_ p: UnsafeMutableRawPointer?, _ body: (CMaybe) -> Void) {
  Unmanaged<CMaybe>.fromOpaque(p.unsafelyUnwrapped)._withUnsafeGuaranteedRef(body)
}

private let maybeSuccess: CValueFn = { p, value in withMaybe(p) { $0.success(value) } }
private let maybeCompleted: CCtxFn = { p in withMaybe(p) { $0.completed() } }
private let maybeError: CErrorFn = { p, error in withMaybe(p) { $0.failed(error) } }
private let maybeDisposed: CCtxFn = { p in
  Unmanaged<CMaybe>.fromOpaque(p.unsafelyUnwrapped).takeRetainedValue().disposed()
}
