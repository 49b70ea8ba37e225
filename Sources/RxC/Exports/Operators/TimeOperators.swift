import CRxc
@_spi(RxC) import RxCore

// rxc.h section 9: the time-based operators of transform, filter, errors and utility, which
// share their argument checks. Negative durations are zero.

// rx:export rx_delay: ObservableHandle.make(src.observable.delay(ns, scheduler: scheduler))
// rx:export rx_delay_subscription: ObservableHandle.make(src.observable.delaySubscription(ns, scheduler: scheduler))
// rx:export rx_timestamp: ObservableHandle.make(COperators.timestamp(src.observable, scheduler))
// rx:export rx_debounce: ObservableHandle.make(src.observable.debounce(ns, scheduler: scheduler))
// rx:export rx_throttle: ObservableHandle.make(src.observable.throttle(ns, latest: latest, scheduler: scheduler))
// rx:export rx_timeout: ObservableHandle.make(src.observable.timeout(ns, scheduler: scheduler))
// rx:export rx_timeout_to: ObservableHandle.make(src.observable.timeout(ns, other: fallback.observable, scheduler: scheduler))
// rx:export rx_sample: ObservableHandle.make(src.observable.sample(sampler.observable))
// rx:export rx_skip_duration: ObservableHandle.make(src.observable.skip(ns, scheduler: scheduler))
// rx:export rx_take_duration: ObservableHandle.make(src.observable.take(for: ns, scheduler: scheduler))

/// rx_buffer's and rx_window's span, count and scheduler, checked: a span <= 0 is count
/// only (the scheduler may be NULL then), a count 0 is time only, both is an error. Nil,
/// with rx_last_error() set, for bad arguments.
private func spanAndCount(
  _ span: Int64, _ count: UInt, _ scheduler: UnsafeMutablePointer<rx_scheduler>?, _ fn: StaticString
) -> (span: Int64?, count: Int?, scheduler: Scheduler?)? {
  let span = max(0, span)
  guard span > 0 || count > 0 else {
    setLastError("\(fn): span_ns and count are both 0")
    return nil
  }
  guard count <= UInt(Int.max) else {
    setLastError("\(fn): count \(count) is too large")
    return nil
  }
  // Count only needs no scheduler (NULL is accepted then).
  var s: Scheduler? = nil
  if span > 0 || scheduler != nil {
    guard let h = SchedulerHandle.from(scheduler, fn) else { return nil }
    s = h.scheduler
  }
  return (span > 0 ? span : nil, count > 0 ? Int(count) : nil, s)
}

@c(rx_buffer)
public func rx_buffer(
  _ src: UnsafeMutablePointer<rx_observable>?, _ span: Int64, _ count: UInt, _ scheduler: UnsafeMutablePointer<rx_scheduler>?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let o = ObservableHandle.from(src, "rx_buffer"),
    let p = spanAndCount(span, count, scheduler, "rx_buffer")
  else { return nil }
  return ObservableHandle.make(o.observable.buffer(
    timeSpan: p.span, count: p.count, scheduler: p.scheduler, make: { RxValue.boxed(ArrayBox($0)) },
    refill: { box, buffer in
      // The box the subscription sent last, which nothing else holds: its items change only so.
      let array = unsafeDowncast(box, to: ArrayBox.self)
      swap(&array.items, &buffer)
      buffer.removeAll(keepingCapacity: true)
    }))
}

@c(rx_window)
public func rx_window(
  _ src: UnsafeMutablePointer<rx_observable>?, _ span: Int64, _ count: UInt, _ scheduler: UnsafeMutablePointer<rx_scheduler>?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let o = ObservableHandle.from(src, "rx_window"),
    let p = spanAndCount(span, count, scheduler, "rx_window")
  else { return nil }
  return ObservableHandle.make(o.observable.window(
    timeSpan: p.span, count: p.count, scheduler: p.scheduler, make: { RxValue.boxed(ObservableBox.make($0)) }))
}

@c(rx_retry_backoff)
public func rx_retry_backoff(
  _ src: UnsafeMutablePointer<rx_observable>?, _ opts: UnsafePointer<rx_backoff_options>?,
  _ scheduler: UnsafeMutablePointer<rx_scheduler>?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let o = ObservableHandle.from(src, "rx_retry_backoff"),
    let s = SchedulerHandle.from(scheduler, "rx_retry_backoff"),
    let backoff = backoffOptions(opts)
  else { return nil }
  return ObservableHandle.make(o.observable.retry(backoff: backoff, scheduler: s.scheduler))
}

/// Validates rx_retry_backoff's options: NULL, a struct_size smaller than this header's
/// struct, unknown trailing fields that are not zero, or a field out of its range is an error.
private func backoffOptions(_ opts: UnsafePointer<rx_backoff_options>?) -> Backoff? {
  func fail(_ message: String) -> Backoff? {
    setLastError("rx_retry_backoff: \(message)")
    return nil
  }
  let known = MemoryLayout<rx_backoff_options>.size
  guard let size = Validate.structSize(opts, known: known, "rx_retry_backoff", "opts", "rx_backoff_options"), let opts
  else { return nil }
  guard Validate.unknownFieldsZero(opts, known: known, size: size, "rx_retry_backoff", "opts") else { return nil }
  let o = opts.pointee
  if o.initial_delay_ns < 0 { return fail("initial_delay_ns \(o.initial_delay_ns) is negative") }
  if !(o.multiplier >= 1) { return fail("multiplier \(o.multiplier) is not at least 1") }
  if o.max_delay_ns < 0 { return fail("max_delay_ns \(o.max_delay_ns) is negative") }
  if !(o.jitter >= 0 && o.jitter <= 1) { return fail("jitter \(o.jitter) is not within 0...1") }
  return Backoff(
    initialDelay: o.initial_delay_ns, multiplier: o.multiplier, maxDelay: o.max_delay_ns,
    maxAttempts: Int(clamping: o.max_attempts), jitter: o.jitter, seed: o.seed, resetOnNext: o.reset_on_next)
}
