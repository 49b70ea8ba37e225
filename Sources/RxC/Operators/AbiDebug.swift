import CRxc
import Glibc
import RxCore

// rxc.h section 9: rx_debug, to a FILE * or to a callback.

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
