import CRxc
@_spi(RxC) import RxCore

// rxc.h section 9, transform (rx_group_by and the key of its groups among them).

// rx:export rx_to_array: ObservableHandle.make(src.observable.toArray(pack: CAdapt.array))
// rx:export rx_enumerated: ObservableHandle.make(COperators.enumerated(src.observable))
// rx:export rx_map: ObservableHandle.make(CPipeline.map(src, fn, ctx, ctxFree))
// rx:export rx_scan: ObservableHandle.make(CPipeline.joining(src, .scan(fn, ctx, seed: seed), ctxFree: ctxFree), else: { COperators.scan(src.observable, seed: seed, CFunction(fn, ctx, ctxFree)) })
// rx:export rx_reduce: ObservableHandle.make(COperators.reduce(src.observable, seed: seed, CFunction(fn, ctx, ctxFree)))
// rx:export rx_flat_map: ObservableHandle.make(CFlatMapProducer(source: src.observable, fn: CFunction(fn, ctx, ctxFree), maxConcurrent: 0, "rx_flat_map"))
// rx:export rx_flat_map_max: ObservableHandle.make(CFlatMapProducer(source: src.observable, fn: CFunction(fn, ctx, ctxFree), maxConcurrent: Int(clamping: maxConcurrent), "rx_flat_map_max"))
// rx:export rx_flat_map_first: ObservableHandle.make(CFlatMapProducer(source: src.observable, fn: CFunction(fn, ctx, ctxFree), maxConcurrent: 0, exclusive: true, "rx_flat_map_first"))
// rx:export rx_flat_map_latest: ObservableHandle.make(src.observable.flatMapLatest(selectingAt: CAdapt.flatMapAt(fn, CContext(ctx, ctxFree), "rx_flat_map_latest")))
// rx:export rx_concat_map: ObservableHandle.make(src.observable.concatMap(selectingAt: CAdapt.flatMapAt(fn, CContext(ctx, ctxFree), "rx_concat_map")))
// rx:export rx_compact_map: ObservableHandle.make(COperators.compactMap(src.observable, CFunction(fn, ctx, ctxFree)))

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
