import CRxc
@_spi(RxC) import RxCore

// rxc.h section 9, transform (rx_group_by and the key of its groups among them).

@c(rx_map)
public func rx_map(
  _ src: UnsafeMutablePointer<rx_observable>?, _ fn: rx_map_fn?, _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  ObservableHandle.with(src, "rx_map") { h in
    guard let fn else { setLastError("rx_map: fn is NULL"); return nil }
    return ObservableHandle.make(CPipeline.map(h, fn, ctx, ctxFree))
  }
}

@c(rx_scan)
public func rx_scan(
  _ src: UnsafeMutablePointer<rx_observable>?, _ seed: rx_value, _ fn: rx_accumulate_fn?,
  _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_scan") else { return nil }
  guard let fn else { setLastError("rx_scan: fn is NULL"); return nil }
  guard let seed = RxValue.from(seed, "rx_scan") else { return nil }
  if let p = CPipeline.joining(h, .scan(fn, ctx, seed: seed), ctxFree: ctxFree) { return ObservableHandle.make(p) }
  let f = CFunction(fn, ctx, ctxFree)
  return ObservableHandle.make(COperators.scan(h.observable, seed: seed, f))
}

@c(rx_reduce)
public func rx_reduce(
  _ src: UnsafeMutablePointer<rx_observable>?, _ seed: rx_value, _ fn: rx_accumulate_fn?,
  _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_reduce") else { return nil }
  guard let fn else { setLastError("rx_reduce: fn is NULL"); return nil }
  guard let seed = RxValue.from(seed, "rx_reduce") else { return nil }
  let f = CFunction(fn, ctx, ctxFree)
  return ObservableHandle.make(COperators.reduce(h.observable, seed: seed, f))
}

@c(rx_flat_map)
public func rx_flat_map(
  _ src: UnsafeMutablePointer<rx_observable>?, _ fn: rx_flat_map_fn?, _ ctx: UnsafeMutableRawPointer?,
  _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  ObservableHandle.with(src, "rx_flat_map") { h in
    guard let fn else { setLastError("rx_flat_map: fn is NULL"); return nil }
    let f = CFunction(fn, ctx, ctxFree)
    return ObservableHandle.make(CFlatMapProducer(source: h.observable, fn: f, maxConcurrent: 0, "rx_flat_map"))
  }
}

@c(rx_flat_map_max)
public func rx_flat_map_max(
  _ src: UnsafeMutablePointer<rx_observable>?, _ maxConcurrent: UInt, _ fn: rx_flat_map_fn?,
  _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_flat_map_max") else { return nil }
  guard let fn else { setLastError("rx_flat_map_max: fn is NULL"); return nil }
  let limit = Int(clamping: maxConcurrent)
  let f = CFunction(fn, ctx, ctxFree)
  return ObservableHandle.make(CFlatMapProducer(source: h.observable, fn: f, maxConcurrent: limit, "rx_flat_map_max"))
}

@c(rx_flat_map_first)
public func rx_flat_map_first(
  _ src: UnsafeMutablePointer<rx_observable>?, _ fn: rx_flat_map_fn?, _ ctx: UnsafeMutableRawPointer?,
  _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_flat_map_first") else { return nil }
  guard let fn else { setLastError("rx_flat_map_first: fn is NULL"); return nil }
  let f = CFunction(fn, ctx, ctxFree)
  return ObservableHandle.make(CFlatMapProducer(source: h.observable, fn: f, maxConcurrent: 0, exclusive: true, "rx_flat_map_first"))
}

@c(rx_flat_map_latest)
public func rx_flat_map_latest(
  _ src: UnsafeMutablePointer<rx_observable>?, _ fn: rx_flat_map_fn?, _ ctx: UnsafeMutableRawPointer?,
  _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_flat_map_latest") else { return nil }
  guard let fn else { setLastError("rx_flat_map_latest: fn is NULL"); return nil }
  let selector = CAdapt.flatMapAt(fn, CContext(ctx, ctxFree), "rx_flat_map_latest")
  return ObservableHandle.make(h.observable.flatMapLatest(selectingAt: selector))
}

@c(rx_concat_map)
public func rx_concat_map(
  _ src: UnsafeMutablePointer<rx_observable>?, _ fn: rx_flat_map_fn?, _ ctx: UnsafeMutableRawPointer?,
  _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_concat_map") else { return nil }
  guard let fn else { setLastError("rx_concat_map: fn is NULL"); return nil }
  return ObservableHandle.make(h.observable.concatMap(selecting: CAdapt.flatMap(fn, CContext(ctx, ctxFree), "rx_concat_map")))
}

@c(rx_to_array)
public func rx_to_array(_ src: UnsafeMutablePointer<rx_observable>?) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_to_array") else { return nil }
  return ObservableHandle.make(h.observable.toArray(pack: CAdapt.array))
}

@c(rx_enumerated)
public func rx_enumerated(_ src: UnsafeMutablePointer<rx_observable>?) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_enumerated") else { return nil }
  return ObservableHandle.make(COperators.enumerated(h.observable))
}

@c(rx_compact_map)
public func rx_compact_map(
  _ src: UnsafeMutablePointer<rx_observable>?, _ fn: rx_compact_map_fn?, _ ctx: UnsafeMutableRawPointer?,
  _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_compact_map") else { return nil }
  guard let fn else { setLastError("rx_compact_map: fn is NULL"); return nil }
  let f = CFunction(fn, ctx, ctxFree)
  return ObservableHandle.make(COperators.compactMap(h.observable, f))
}

@c(rx_group_by)
public func rx_group_by(
  _ src: UnsafeMutablePointer<rx_observable>?, _ keyFn: rx_map_fn?, _ ctx: UnsafeMutableRawPointer?,
  _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_group_by") else { return nil }
  guard let keyFn else { setLastError("rx_group_by: key_fn is NULL"); return nil }
  let context = CContext(ctx, ctxFree)
  return ObservableHandle.make(h.observable.groupBy(keyAt: { p in
    var err: UnsafeMutablePointer<rx_error>? = nil
    let r = keyFn(context.ctx, RxValue.c(at: p), &err)
    return try GroupKeys.key(CallbackResult.value(r, err, "rx_group_by"), "rx_group_by")
  }, pack: GroupKeys.pack))
}

@c(rx_group_key)
public func rx_group_key(_ group: UnsafePointer<rx_observable>?, _ out: UnsafeMutablePointer<rx_value>?) -> rx_status {
  out?.pointee = rx_none()
  guard let h = ObservableHandle.from(group, "rx_group_key", "group") else { return invalid(group) }
  guard let out else { return fail(RX_EINVAL, "rx_group_key: out is NULL") }
  guard let g = h.unretainedCore?.takeUnretainedValue() as? ValueGroupedObservable else {
    return fail(RX_EINVAL, "rx_group_key: the observable is not a group of rx_group_by")
  }
  out.pointee = g.key.value.ownedC
  return RX_OK
}
