import CRxc
@_spi(RxC) import RxCore

// rxc.h section 9, combine.

// rx:export rx_merge: ObservableHandle.make(Observable.merge(srcs))
// rx:export rx_merge_max: ObservableHandle.make(Observable.merge(srcs, maxConcurrent: Int(clamping: maxConcurrent)))
// rx:export rx_concat: ObservableHandle.make(Observable.concat(srcs))
// rx:export rx_amb: ObservableHandle.make(Observable.amb(srcs))
// rx:export rx_combine_latest nullable=fn: ObservableHandle.make(Observable.combineLatest(srcs, selector: CAdapt.combining(fn, CContext(ctx, ctxFree), "rx_combine_latest")))
// rx:export rx_zip nullable=fn: ObservableHandle.make(Observable.zip(srcs, selector: CAdapt.combining(fn, CContext(ctx, ctxFree), "rx_zip")))

@c(rx_with_latest_from)
public func rx_with_latest_from(
  _ src: UnsafeMutablePointer<rx_observable>?, _ other: UnsafeMutablePointer<rx_observable>?, _ fn: rx_combine_fn?,
  _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_with_latest_from") else { return nil }
  guard let o = ObservableHandle.from(other, "rx_with_latest_from", "other") else { return nil }
  let context = CContext(ctx, ctxFree)
  guard let fn else {
    // ctx_free still runs once, when the observable and its subscriptions are gone.
    return ObservableHandle.make(h.observable.withLatestFrom(o.observable) { _, latest in
      withExtendedLifetime(context) { latest }
    })
  }
  let combining = CAdapt.Combining(fn, context, "rx_with_latest_from")
  return ObservableHandle.make(h.observable.withLatestFrom(o.observable, combining: combining))
}

@c(rx_start_with)
public func rx_start_with(
  _ src: UnsafeMutablePointer<rx_observable>?, _ values: UnsafePointer<rx_value>?, _ n: UInt
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_start_with") else { return nil }
  if n > 0 && values == nil {
    setLastError("rx_start_with: values is NULL but n is \(n)")
    return nil
  }
  var items: [RxValue] = []
  items.reserveCapacity(Int(n))
  for i in 0..<Int(n) {
    guard let v = RxValue.from(values![i], "rx_start_with") else { return nil }
    items.append(v)
  }
  return ObservableHandle.make(h.observable.startWith(items))
}

@c(rx_switch_latest)
public func rx_switch_latest(_ src: UnsafeMutablePointer<rx_observable>?) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_switch_latest") else { return nil }
  return ObservableHandle.make(h.observable.flatMapLatest(selectingAt: { v in
    // By class (a compare; `as?` is a runtime call): ObservableBox is final. The box is
    // looked at unretained, where the value is.
    guard let box = Value.unretainedObject(at: v), box._withUnsafeGuaranteedRef({ type(of: $0) == ObservableBox.self }) else {
      throw CAdapt.typeError("rx_switch_latest: the source emitted a value that is not an RX_OBSERVABLE")
    }
    return unsafeBitCast(box, to: Unmanaged<ObservableBox>.self)._withUnsafeGuaranteedRef { $0.selection }
  }))
}

