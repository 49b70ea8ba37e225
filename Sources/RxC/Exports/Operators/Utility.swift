import CRxc
import Glibc
@_spi(RxC) import RxCore

// rxc.h section 9, utility (rx_delay* are in TimeOperators.swift); rx_debug, to a FILE * or
// to a callback.

// rx:export rx_materialize: ObservableHandle.make(COperators.materialize(src.observable))
// rx:export rx_dematerialize: ObservableHandle.make(COperators.dematerialize(src.observable))

@c(rx_do)
public func rx_do(_ src: UnsafeMutablePointer<rx_observable>?, _ tap: rx_observer, _ ctxFree: rx_free_fn?)
  -> UnsafeMutablePointer<rx_observable>?
{
  guard let h = ObservableHandle.from(src, "rx_do") else { return nil }
  // Each subscription gets its own ObserverEnd on the tap's callbacks, so the tap gets the
  // same guarantees as a subscriber (no overlap, on_disposed once and last). The factory
  // holds the context; every DoSink holds the factory.
  let context = CContext(tap.ctx, ctxFree)
  return ObservableHandle.make(h.observable.do(tap: {
    withExtendedLifetime(context) { ObserverEnd(tap) }
  }))
}

@c(rx_do_with_hooks)
public func rx_do_with_hooks(
  _ src: UnsafeMutablePointer<rx_observable>?, _ hooks: UnsafePointer<rx_do_hooks>?, _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  let fn: StaticString = "rx_do_with_hooks"
  guard let h = ObservableHandle.from(src, fn) else { return nil }
  let known = MemoryLayout<rx_do_hooks>.size
  guard let size = Validate.structSize(hooks, known: known, fn, "hooks", "rx_do_hooks"), let hooks,
    Validate.unknownFieldsZero(hooks, known: known, size: size, fn, "hooks")
  else { return nil }
  let context = CContext(hooks.pointee.ctx, ctxFree)
  let c = hooks.pointee
  guard c.on_next != nil || c.after_next != nil else {
    return ObservableHandle.make(h.observable.do(hooks: DoHooks(c, context)))
  }
  return ObservableHandle.make(h.observable.do(hooks: DoHooks(c, context), nextHooks: CNextHooks(c, context)))
}

extension DoHooks where Element == RxValue {
  /// The C hooks as closures. Each holds `context`, and on_subscribe's is always there, so
  /// the producer and every sink keep ctx until they are gone.
  init(_ c: rx_do_hooks, _ context: CContext) {
    let ctx = c.ctx
    func value(_ f: (@convention(c) (UnsafeMutableRawPointer?, rx_value) -> Void)?) -> ((RxValue) -> Void)? {
      guard let f else { return nil }
      return { v in withExtendedLifetime(context) { f(ctx, v.c) } }
    }
    func error(_ f: (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<rx_error>?) -> Void)?)
      -> ((any Error) -> Void)?
    {
      guard let f else { return nil }
      return { error in
        let e = ErrorObject.from(error)
        withExtendedLifetime(context) { f(ctx, e.cPointer) }
        withExtendedLifetime(e) {}
      }
    }
    func plain(_ f: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?) -> (() -> Void)? {
      guard let f else { return nil }
      return { withExtendedLifetime(context) { f(ctx) } }
    }
    let onSubscribe = c.on_subscribe
    self.init(
      onNext: value(c.on_next), afterNext: value(c.after_next), onError: error(c.on_error),
      afterError: error(c.after_error), onCompleted: plain(c.on_completed), afterCompleted: plain(c.after_completed),
      onSubscribe: { withExtendedLifetime(context) { onSubscribe?(ctx) } }, onSubscribed: plain(c.on_subscribed),
      onDispose: plain(c.on_dispose))
  }
}

@c(rx_debug)
public func rx_debug(
  _ src: UnsafeMutablePointer<rx_observable>?, _ label: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<rx_file>?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_debug") else { return nil }
  let file = out ?? stderr
  return ObservableHandle.make(h.observable.debug(debugLog(label) { line in
    // Under the stream's lock, so lines of several threads do not mix.
    flockfile(file)
    fputs(line, file)
    fputc(10, file)
    fflush(file)
    funlockfile(file)
  }))
}

@c(rx_debug_callback)
public func rx_debug_callback(
  _ src: UnsafeMutablePointer<rx_observable>?, _ label: UnsafePointer<CChar>?, _ fn: rx_debug_fn?,
  _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_debug_callback") else { return nil }
  guard let fn else {
    setLastError("rx_debug_callback: fn is NULL")
    return nil
  }
  let context = CContext(ctx, ctxFree)
  return ObservableHandle.make(h.observable.debug(debugLog(label) { line in
    withExtendedLifetime(context) { line.withCString { fn(ctx, $0) } }
  }))
}

/// The log of a label (copied now; NULL is "rx_debug"), writing its lines with `write`.
private func debugLog(_ label: UnsafePointer<CChar>?, _ write: @escaping (String) -> Void) -> DebugLog<RxValue> {
  DebugLog(
    label: label.map { String(cString: $0) } ?? "rx_debug", describe: { $0.debugText },
    describeError: { ErrorObject.from($0).debugText }, write: write)
}
