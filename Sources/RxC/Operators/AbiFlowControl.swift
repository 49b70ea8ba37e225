import CRxc
import RxCore
import Synchronization

// rxc.h section 9: flow control: rx_observe_on_bounded and its counters.

@c(rx_observe_on_bounded)
public func rx_observe_on_bounded(
  _ src: UnsafeMutablePointer<rx_observable>?, _ scheduler: UnsafeMutablePointer<rx_scheduler>?,
  _ opts: UnsafePointer<rx_flow_options>?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let o = ObservableHandle.from(src, "rx_observe_on_bounded"),
    let s = SchedulerHandle.from(scheduler, "rx_observe_on_bounded")
  else { return nil }
  guard let opts else {
    setLastError("rx_observe_on_bounded: opts is NULL")
    return nil
  }
  // Read only as far as the caller's struct_size says (first field): options may grow.
  let declared = UnsafeRawPointer(opts).load(as: Int.self)
  guard declared >= MemoryLayout<rx_flow_options>.size else {
    setLastError("rx_observe_on_bounded: opts->struct_size \(declared) is below sizeof(rx_flow_options) \(MemoryLayout<rx_flow_options>.size)")
    return nil
  }
  let options = opts.pointee
  let policy: FlowPolicy
  switch options.policy {
  case Int32(RX_OVERFLOW_DROP_OLDEST.rawValue): policy = .dropOldest
  case Int32(RX_OVERFLOW_DROP_NEWEST.rawValue): policy = .dropNewest
  case Int32(RX_OVERFLOW_KEEP_LATEST.rawValue): policy = .keepLatest
  case Int32(RX_OVERFLOW_FAIL.rawValue): policy = .fail
  case Int32(RX_OVERFLOW_BLOCK.rawValue):
    guard options.block_timeout_ns > 0 else {
      setLastError("rx_observe_on_bounded: opts->block_timeout_ns must be > 0 for RX_OVERFLOW_BLOCK")
      return nil
    }
    policy = .block(timeoutNanos: options.block_timeout_ns)
  default:
    setLastError("rx_observe_on_bounded: opts->policy \(options.policy) is not an rx_overflow_policy")
    return nil
  }
  guard options.capacity >= 1 || policy == .keepLatest, options.capacity <= UInt(Int.max) else {
    setLastError("rx_observe_on_bounded: opts->capacity must be >= 1")
    return nil
  }
  // The closure holds the context even without on_dropped, so ctx_free runs after the last sink.
  let context = CContext(options.ctx, options.ctx_free)
  let fn = options.on_dropped
  let bounded = o.observable.observe(on: s.scheduler, capacity: Int(options.capacity), policy: policy) { v in
    withExtendedLifetime(context) { fn?(context.ctx, v.c) }
  }
  return ObservableHandle.make(bounded)
}

@c(rx_flow_stats_get)
public func rx_flow_stats_get(_ bounded: UnsafeMutablePointer<rx_observable>?, _ out: UnsafeMutablePointer<rx_flow_stats>?)
  -> rx_status
{
  guard let h = ObservableHandle.from(bounded, "rx_flow_stats_get", "bounded") else { return invalid(bounded) }
  guard let out else { return fail(RX_EINVAL, "rx_flow_stats_get: out is NULL") }
  let declared = UnsafeMutableRawPointer(out).load(as: Int.self)
  guard declared >= MemoryLayout<rx_flow_stats>.size else {
    return fail(RX_EINVAL, "rx_flow_stats_get: out->struct_size \(declared) is below sizeof(rx_flow_stats) \(MemoryLayout<rx_flow_stats>.size)")
  }
  guard let counters = (h.observable as? BoundedObserveOn<RxValue>)?.counters else {
    return fail(RX_EINVAL, "rx_flow_stats_get: not an rx_observe_on_bounded observable")
  }
  out.pointee.received = counters.received.load(ordering: .relaxed)
  out.pointee.delivered = counters.delivered.load(ordering: .relaxed)
  out.pointee.dropped = counters.dropped.load(ordering: .relaxed)
  out.pointee.overflows = counters.overflows.load(ordering: .relaxed)
  return RX_OK
}
