import CRxc
import RxCore

// rxc.h section 9: rx_group_by and the key of its groups.

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
