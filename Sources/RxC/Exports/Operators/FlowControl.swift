import CRxc
@_spi(RxC) import RxCore
import Synchronization

// rxc.h section 9, flow control: rx_observe_on_bounded, rx_pausable(_buffered), rx_rate_limit
// and their counters.

// rx:export rx_pausable: ObservableHandle.make(src.observable.pausable(pauser.observable))

/// rx_flow_options, read and checked: the limit's policy and capacity, and on_dropped as a
/// closure holding the context (so ctx_free runs after the last sink, even without
/// on_dropped). Nil, with rx_last_error() set, for bad options; nothing is taken then.
private func flowOptions(_ opts: UnsafePointer<rx_flow_options>?, _ fn: StaticString, allowBlock: Bool = true)
  -> (policy: FlowPolicy, capacity: Int, onDropped: (RxValue) -> Void)?
{
  guard Validate.structSize(opts, known: MemoryLayout<rx_flow_options>.size, fn, "opts", "rx_flow_options") != nil,
    let opts
  else { return nil }
  let options = opts.pointee
  let policy: FlowPolicy
  switch options.policy {
  case Int32(RX_OVERFLOW_DROP_OLDEST.rawValue): policy = .dropOldest
  case Int32(RX_OVERFLOW_DROP_NEWEST.rawValue): policy = .dropNewest
  case Int32(RX_OVERFLOW_KEEP_LATEST.rawValue): policy = .keepLatest
  case Int32(RX_OVERFLOW_FAIL.rawValue): policy = .fail
  case Int32(RX_OVERFLOW_BLOCK.rawValue):
    guard allowBlock else {
      setLastError("\(fn): RX_OVERFLOW_BLOCK is not supported here")
      return nil
    }
    guard options.block_timeout_ns > 0 else {
      setLastError("\(fn): opts->block_timeout_ns must be > 0 for RX_OVERFLOW_BLOCK")
      return nil
    }
    policy = .block(timeoutNanos: options.block_timeout_ns)
  default:
    setLastError("\(fn): opts->policy \(options.policy) is not an rx_overflow_policy")
    return nil
  }
  guard options.capacity >= 1 || policy == .keepLatest, options.capacity <= UInt(Int.max) else {
    setLastError("\(fn): opts->capacity must be >= 1")
    return nil
  }
  let context = CContext(options.ctx, options.ctx_free)
  let dropped = options.on_dropped
  return (policy, Int(options.capacity), { v in withExtendedLifetime(context) { dropped?(context.ctx, v.c) } })
}

@c(rx_observe_on_bounded)
public func rx_observe_on_bounded(
  _ src: UnsafeMutablePointer<rx_observable>?, _ scheduler: UnsafeMutablePointer<rx_scheduler>?,
  _ opts: UnsafePointer<rx_flow_options>?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let o = ObservableHandle.from(src, "rx_observe_on_bounded"),
    let s = SchedulerHandle.from(scheduler, "rx_observe_on_bounded"),
    let flow = flowOptions(opts, "rx_observe_on_bounded")
  else { return nil }
  return ObservableHandle.make(
    o.observable.observe(on: s.scheduler, capacity: flow.capacity, policy: flow.policy, onDropped: flow.onDropped))
}

@c(rx_pausable_buffered)
public func rx_pausable_buffered(
  _ src: UnsafeMutablePointer<rx_observable>?, _ pauser: UnsafeMutablePointer<rx_observable>?,
  _ opts: UnsafePointer<rx_flow_options>?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let o = ObservableHandle.from(src, "rx_pausable_buffered"),
    let p = ObservableHandle.from(pauser, "rx_pausable_buffered", "pauser"),
    let flow = flowOptions(opts, "rx_pausable_buffered", allowBlock: false)
  else { return nil }
  return ObservableHandle.make(
    o.observable.pausableBuffered(p.observable, capacity: flow.capacity, policy: flow.policy, onDropped: flow.onDropped))
}

@c(rx_rate_limit)
public func rx_rate_limit(
  _ src: UnsafeMutablePointer<rx_observable>?, _ n: UInt, _ windowNs: Int64, _ scheduler: UnsafeMutablePointer<rx_scheduler>?,
  _ opts: UnsafePointer<rx_flow_options>?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let o = ObservableHandle.from(src, "rx_rate_limit"),
    let s = SchedulerHandle.from(scheduler, "rx_rate_limit")
  else { return nil }
  guard n >= 1 else {
    setLastError("rx_rate_limit: n must be >= 1")
    return nil
  }
  guard n <= UInt(Int.max) else {
    setLastError("rx_rate_limit: n \(n) is too large")
    return nil
  }
  guard windowNs > 0 else {
    setLastError("rx_rate_limit: window_ns must be > 0")
    return nil
  }
  // NULL options: an unbounded queue.
  guard let opts else {
    return ObservableHandle.make(o.observable.rateLimit(Int(n), per: windowNs, scheduler: s.scheduler))
  }
  guard let flow = flowOptions(opts, "rx_rate_limit", allowBlock: false) else { return nil }
  return ObservableHandle.make(o.observable.rateLimit(
    Int(n), per: windowNs, scheduler: s.scheduler, capacity: flow.capacity, policy: flow.policy,
    onDropped: flow.onDropped))
}

@c(rx_flow_stats_get)
public func rx_flow_stats_get(_ bounded: UnsafeMutablePointer<rx_observable>?, _ out: UnsafeMutablePointer<rx_flow_stats>?)
  -> rx_status
{
  guard let h = ObservableHandle.from(bounded, "rx_flow_stats_get", "bounded") else { return invalid(bounded) }
  guard Validate.structSize(out, known: MemoryLayout<rx_flow_stats>.size, "rx_flow_stats_get", "out", "rx_flow_stats") != nil,
    let out
  else { return RX_EINVAL }
  guard let stats = (h.observable as? any FlowCounted)?.flowStats else {
    return fail(RX_EINVAL, "rx_flow_stats_get: not an rx_observe_on_bounded, rx_pausable_buffered or rx_rate_limit observable")
  }
  out.pointee.received = stats.received
  out.pointee.delivered = stats.delivered
  out.pointee.dropped = stats.dropped
  out.pointee.overflows = stats.overflows
  return RX_OK
}
