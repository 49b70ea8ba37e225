import CRxc
@_spi(RxC) import RxCore

// rxc.h section 6: creating observables (rx_generate and rx_using are in section 9, by
// their callback types); rx_interval and rx_timer tick RX_INT 0, 1, 2, ...

@c(rx_create)
public func rx_create(_ fn: rx_subscribe_fn?, _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?)
  -> UnsafeMutablePointer<rx_observable>?
{
  guard let fn else {
    setLastError("rx_create: fn is NULL")
    return nil
  }
  let context = CContext(ctx, ctxFree)
  return ObservableHandle.make(AnonymousObservable<RxValue> { sink in
    let emitter = EmitterHandle(sink)
    // toC(): the C reference must own a Swift retain, which the last releaseC drops.
    let returned = fn(context.ctx, emitter.toC().assumingMemoryBound(to: rx_emitter.self))
    emitter.releaseC()  // the emitter was only borrowed by fn; rx_retain keeps it longer
    guard let returned else { return NopDisposable.shared }
    return DisposableHandle.take(returned, "rx_create (returned disposable)") ?? NopDisposable.shared
  })
}

@c(rx_emitter_next)
public func rx_emitter_next(_ emitter: UnsafeMutablePointer<rx_emitter>?, _ value: rx_value) -> rx_status {
  guard let p = Validate.pointer(emitter, .emitter, "rx_emitter_next", "emitter") else { return invalid(emitter) }
  let h = Unmanaged<EmitterHandle>.fromOpaque(p)  // borrowed under C's reference
  // The value lent for the call: copied only if the sink queues it.
  return RxValue.lend(
    value, "rx_emitter_next", plain: { v in _withUnprotectedUnsafePointer(to: v) { emitNext(h, at: $0) } },
    boxed: { emitNext(h, at: $0) }) ?? RX_EINVAL
}

@inline(__always)
private func emitNext(_ h: Unmanaged<EmitterHandle>, at p: UnsafePointer<RxValue>) -> rx_status {
  status(h._withUnsafeGuaranteedRef { $0.sink.emitNext(at: p) }, "rx_emitter_next")
}

@c(rx_emitter_error)
public func rx_emitter_error(_ emitter: UnsafeMutablePointer<rx_emitter>?, _ error: UnsafePointer<rx_error>?) -> rx_status {
  guard let e = EmitterHandle.from(emitter, "rx_emitter_error") else { return invalid(emitter) }
  guard let err = ErrorObject.fromC(error, "rx_emitter_error") else { return invalid(error) }
  return status(e.sink.emit(.error(err)), "rx_emitter_error")
}

@c(rx_emitter_completed)
public func rx_emitter_completed(_ emitter: UnsafeMutablePointer<rx_emitter>?) -> rx_status {
  guard let e = EmitterHandle.from(emitter, "rx_emitter_completed") else { return invalid(emitter) }
  return status(e.sink.emit(.completed), "rx_emitter_completed")
}

@c(rx_emitter_is_disposed)
public func rx_emitter_is_disposed(_ emitter: UnsafeMutablePointer<rx_emitter>?) -> Bool {
  guard let e = EmitterHandle.from(emitter, "rx_emitter_is_disposed") else { return false }
  return e.sink.isDisposed
}

private func status(_ outcome: AnonymousObservableSink<RxValue>.Outcome, _ fn: StaticString) -> rx_status {
  switch outcome {
  case .accepted, .afterStop: return RX_OK
  case .afterDispose: return fail(RX_EDISPOSED, "\(fn): the subscription is disposed")
  }
}

@c(rx_just)
public func rx_just(_ value: rx_value) -> UnsafeMutablePointer<rx_observable>? {
  guard let v = RxValue.from(value, "rx_just") else { return nil }
  return ObservableHandle.make(scalar: v)
}

@c(rx_of)
public func rx_of(_ values: UnsafePointer<rx_value>?, _ count: UInt) -> UnsafeMutablePointer<rx_observable>? {
  let n = Int(count)
  if values == nil && n > 0 {
    setLastError("rx_of: values is NULL but n is \(n)")
    return nil
  }
  var items = ContiguousArray<RxValue>()
  items.reserveCapacity(n)
  for i in 0..<n {
    guard let v = RxValue.from(values![i], "rx_of") else { return nil }
    items.append(v)
  }
  return ObservableHandle.make(Observable.from(items))
}

@c(rx_range)
public func rx_range(_ start: Int64, _ count: UInt) -> UnsafeMutablePointer<rx_observable>? {
  guard count <= UInt(Int64.max) else {
    setLastError("rx_range: count \(count) is too large")
    return nil
  }
  let count = Int(count)
  if count > 0 && start > Int64.max - Int64(count - 1) {
    setLastError("rx_range: start + count overflows int64_t")
    return nil
  }
  return ObservableHandle.make(ValueRange(start: start, count: count))
}

@c(rx_empty)
public func rx_empty() -> UnsafeMutablePointer<rx_observable>? { ObservableHandle.make(ValueEmpty()) }

@c(rx_never)
public func rx_never() -> UnsafeMutablePointer<rx_observable>? { ObservableHandle.make(Never()) }

@c(rx_throw)
public func rx_throw(_ error: UnsafePointer<rx_error>?) -> UnsafeMutablePointer<rx_observable>? {
  guard let e = ErrorObject.fromC(error, "rx_throw") else { return nil }
  return ObservableHandle.make(ValueFail(e))
}

@c(rx_repeat_element)
public func rx_repeat_element(_ value: rx_value, _ scheduler: UnsafeMutablePointer<rx_scheduler>?)
  -> UnsafeMutablePointer<rx_observable>?
{
  guard let v = RxValue.from(value, "rx_repeat_element") else { return nil }
  guard let on = SchedulerHandle.orCurrentThread(scheduler, "rx_repeat_element") else { return nil }
  return ObservableHandle.make(Observable<RxValue>.repeatElement(v, scheduler: on))
}

@c(rx_defer)
public func rx_defer(
  _ factory: (@convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutablePointer<rx_observable>?)?,
  _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let factory else {
    setLastError("rx_defer: factory is NULL")
    return nil
  }
  let context = CContext(ctx, ctxFree)
  return ObservableHandle.make(Deferred<RxValue> {
    guard let o = ObservableHandle.take(factory(context.ctx), "rx_defer (factory result)") else {
      throw ErrorObject.make(code: Int32(RX_ERROR_UNKNOWN), "rx_defer: the factory returned no observable")
    }
    return o
  })
}

@c(rx_interval)
public func rx_interval(_ period: Int64, _ scheduler: UnsafeMutablePointer<rx_scheduler>?)
  -> UnsafeMutablePointer<rx_observable>?
{
  guard period > 0 else {
    setLastError("rx_interval: period must be > 0 (got \(period))")
    return nil
  }
  guard let s = SchedulerHandle.from(scheduler, "rx_interval") else { return nil }
  guard s.scheduler.supportsPeriodic else {
    setLastError("rx_interval: the immediate and current-thread schedulers cannot run periodic work")
    return nil
  }
  return ObservableHandle.make(Observable<RxValue>.interval(period, scheduler: s.scheduler))
}

@c(rx_timer)
public func rx_timer(_ due: Int64, _ period: Int64, _ scheduler: UnsafeMutablePointer<rx_scheduler>?)
  -> UnsafeMutablePointer<rx_observable>?
{
  guard period != 0 else {
    setLastError("rx_timer: period 0 is rejected (negative means once)")
    return nil
  }
  guard let s = SchedulerHandle.from(scheduler, "rx_timer") else { return nil }
  if period > 0 && !s.scheduler.supportsPeriodic {
    setLastError("rx_timer: the immediate and current-thread schedulers cannot run periodic work")
    return nil
  }
  return ObservableHandle.make(Observable<RxValue>.timer(
    max(0, due), period: period > 0 ? period : nil, scheduler: s.scheduler))
}
