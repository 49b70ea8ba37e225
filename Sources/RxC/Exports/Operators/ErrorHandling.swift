import CRxc
@_spi(RxC) import RxCore

// rxc.h section 9, errors: error handling (rx_timeout is in TimeOperators.swift).

// rx:export rx_catch_with: ObservableHandle.make(src.observable.catch { [next = fallback.observable] _ in next })
// rx:export rx_retry: ObservableHandle.make(src.observable.retry(Int(clamping: maxAttempts)))
// rx:export rx_catch_and_return: ObservableHandle.make(src.observable.catchAndReturn(value))

@c(rx_catch)
public func rx_catch(
  _ src: UnsafeMutablePointer<rx_observable>?, _ fn: rx_catch_fn?, _ ctx: UnsafeMutableRawPointer?,
  _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_catch") else { return nil }
  guard let fn else { setLastError("rx_catch: fn is NULL"); return nil }
  let context = CContext(ctx, ctxFree)
  return ObservableHandle.make(h.observable.catch { error in
    let e = ErrorObject.from(error)
    let returned = withExtendedLifetime(e) { fn(context.ctx, e.cPointer) }
    guard let returned else { throw e }  // NULL: forward the original error
    guard let next = ObservableHandle.take(returned, "rx_catch") else {
      throw CAdapt.typeError("rx_catch: fn returned something that is not an rx_observable")
    }
    return next
  })
}

@c(rx_retry_when)
public func rx_retry_when(
  _ src: UnsafeMutablePointer<rx_observable>?, _ fn: rx_retry_when_fn?, _ ctx: UnsafeMutableRawPointer?,
  _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_retry_when") else { return nil }
  guard let fn else { setLastError("rx_retry_when: fn is NULL"); return nil }
  let context = CContext(ctx, ctxFree)
  return ObservableHandle.make(h.observable.retry(when: { errors in
    // The errors handle is fn's to borrow: a retain keeps it past the call.
    let handle = ObservableHandle.make(errors)
    defer { rx_release(handle) }
    var err: UnsafeMutablePointer<rx_error>? = nil
    let notifier = fn(context.ctx, handle, &err)
    return try CallbackResult.observable(notifier, err, "rx_retry_when")
  }, pack: EventBox.errorValue))
}
