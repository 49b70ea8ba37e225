import CRxc
@_spi(RxC) import RxCore

// rxc.h section 9, combine.

@c(rx_merge)
public func rx_merge(_ srcs: UnsafePointer<UnsafeMutablePointer<rx_observable>?>?, _ n: UInt)
  -> UnsafeMutablePointer<rx_observable>?
{
  guard let sources = observableArray(srcs, n, "rx_merge") else { return nil }
  return ObservableHandle.make(Observable.merge(sources))
}

@c(rx_merge_max)
public func rx_merge_max(_ srcs: UnsafePointer<UnsafeMutablePointer<rx_observable>?>?, _ n: UInt, _ maxConcurrent: UInt)
  -> UnsafeMutablePointer<rx_observable>?
{
  guard let sources = observableArray(srcs, n, "rx_merge_max") else { return nil }
  return ObservableHandle.make(Observable.merge(sources, maxConcurrent: Int(clamping: maxConcurrent)))
}

@c(rx_concat)
public func rx_concat(_ srcs: UnsafePointer<UnsafeMutablePointer<rx_observable>?>?, _ n: UInt)
  -> UnsafeMutablePointer<rx_observable>?
{
  guard let sources = observableArray(srcs, n, "rx_concat") else { return nil }
  return ObservableHandle.make(Observable.concat(sources))
}

@c(rx_combine_latest)
public func rx_combine_latest(
  _ srcs: UnsafePointer<UnsafeMutablePointer<rx_observable>?>?, _ n: UInt, _ fn: rx_combine_fn?,
  _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let sources = observableArray(srcs, n, "rx_combine_latest") else { return nil }
  let selector = CAdapt.combining(fn, CContext(ctx, ctxFree), "rx_combine_latest")
  return ObservableHandle.make(Observable.combineLatest(sources, selector: selector))
}

@c(rx_zip)
public func rx_zip(
  _ srcs: UnsafePointer<UnsafeMutablePointer<rx_observable>?>?, _ n: UInt, _ fn: rx_combine_fn?,
  _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let sources = observableArray(srcs, n, "rx_zip") else { return nil }
  let selector = CAdapt.combining(fn, CContext(ctx, ctxFree), "rx_zip")
  return ObservableHandle.make(Observable.zip(sources, selector: selector))
}

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

@c(rx_amb)
public func rx_amb(_ srcs: UnsafePointer<UnsafeMutablePointer<rx_observable>?>?, _ n: UInt)
  -> UnsafeMutablePointer<rx_observable>?
{
  guard let sources = observableArray(srcs, n, "rx_amb") else { return nil }
  return ObservableHandle.make(Observable.amb(sources))
}
