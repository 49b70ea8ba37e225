import CRxc
@_spi(RxC) import RxCore

// rxc.h section 9, filter (the timed ones are in TimeOperators.swift).

@c(rx_filter)
public func rx_filter(
  _ src: UnsafeMutablePointer<rx_observable>?, _ fn: rx_predicate_fn?, _ ctx: UnsafeMutableRawPointer?,
  _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  ObservableHandle.with(src, "rx_filter") { h in
    guard let fn else { setLastError("rx_filter: fn is NULL"); return nil }
    return ObservableHandle.make(CPipeline.filter(h, fn, ctx, ctxFree))
  }
}

@c(rx_take)
public func rx_take(_ src: UnsafeMutablePointer<rx_observable>?, _ n: UInt) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_take") else { return nil }
  if let p = CPipeline.joining(h, .take(Int(clamping: n))) { return ObservableHandle.make(p) }
  return ObservableHandle.make(h.observable.take(Int(clamping: n)))
}

@c(rx_skip)
public func rx_skip(_ src: UnsafeMutablePointer<rx_observable>?, _ n: UInt) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_skip") else { return nil }
  if let p = CPipeline.joining(h, .skip(Int(clamping: n))) { return ObservableHandle.make(p) }
  return ObservableHandle.make(h.observable.skip(Int(clamping: n)))
}

@c(rx_take_while)
public func rx_take_while(
  _ src: UnsafeMutablePointer<rx_observable>?, _ fn: rx_predicate_fn?, _ ctx: UnsafeMutableRawPointer?,
  _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_take_while") else { return nil }
  guard let fn else { setLastError("rx_take_while: fn is NULL"); return nil }
  return ObservableHandle.make(takeWhile(h, fn, ctx, ctxFree, "rx_take_while", stopsOn: false, inclusive: false))
}

@c(rx_take_while_inclusive)
public func rx_take_while_inclusive(
  _ src: UnsafeMutablePointer<rx_observable>?, _ fn: rx_predicate_fn?, _ ctx: UnsafeMutableRawPointer?,
  _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_take_while_inclusive") else { return nil }
  guard let fn else { setLastError("rx_take_while_inclusive: fn is NULL"); return nil }
  return ObservableHandle.make(takeWhile(h, fn, ctx, ctxFree, "rx_take_while_inclusive", stopsOn: false, inclusive: true))
}

@c(rx_skip_while)
public func rx_skip_while(
  _ src: UnsafeMutablePointer<rx_observable>?, _ fn: rx_predicate_fn?, _ ctx: UnsafeMutableRawPointer?,
  _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_skip_while") else { return nil }
  guard let fn else { setLastError("rx_skip_while: fn is NULL"); return nil }
  let f = CFunction(fn, ctx, ctxFree)
  return ObservableHandle.make(COperators.skipWhile(h.observable, f, "rx_skip_while"))
}

@c(rx_take_until)
public func rx_take_until(
  _ src: UnsafeMutablePointer<rx_observable>?, _ other: UnsafeMutablePointer<rx_observable>?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_take_until") else { return nil }
  guard let o = ObservableHandle.from(other, "rx_take_until", "other") else { return nil }
  return ObservableHandle.make(h.observable.take(until: o.observable))
}

@c(rx_take_until_predicate)
public func rx_take_until_predicate(
  _ src: UnsafeMutablePointer<rx_observable>?, _ inclusive: Bool, _ fn: rx_predicate_fn?,
  _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_take_until_predicate") else { return nil }
  guard let fn else { setLastError("rx_take_until_predicate: fn is NULL"); return nil }
  return ObservableHandle.make(takeWhile(h, fn, ctx, ctxFree, "rx_take_until_predicate", stopsOn: true, inclusive: inclusive))
}

@c(rx_skip_until)
public func rx_skip_until(
  _ src: UnsafeMutablePointer<rx_observable>?, _ other: UnsafeMutablePointer<rx_observable>?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_skip_until") else { return nil }
  guard let o = ObservableHandle.from(other, "rx_skip_until", "other") else { return nil }
  return ObservableHandle.make(h.observable.skip(until: o.observable))
}

@c(rx_take_last)
public func rx_take_last(_ src: UnsafeMutablePointer<rx_observable>?, _ n: UInt) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_take_last") else { return nil }
  return ObservableHandle.make(h.observable.takeLast(Int(clamping: n)))
}

@c(rx_skip_last)
public func rx_skip_last(_ src: UnsafeMutablePointer<rx_observable>?, _ n: UInt) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_skip_last") else { return nil }
  return ObservableHandle.make(h.observable.skipLast(Int(clamping: n)))
}

@c(rx_distinct_until_changed)
public func rx_distinct_until_changed(
  _ src: UnsafeMutablePointer<rx_observable>?, _ eq: rx_equal_fn?, _ ctx: UnsafeMutableRawPointer?,
  _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_distinct_until_changed") else { return nil }
  // A NULL eq is rx_value_equal; ctx_free still runs once, when the observable and its
  // subscriptions are gone.
  let f = CFunction(eq, ctx, ctxFree)
  return ObservableHandle.make(COperators.distinct(h.observable, f))
}

@c(rx_element_at)
public func rx_element_at(_ src: UnsafeMutablePointer<rx_observable>?, _ i: UInt) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_element_at") else { return nil }
  return ObservableHandle.make(h.observable.element(at: Int(clamping: i)))
}

@c(rx_first)
public func rx_first(_ src: UnsafeMutablePointer<rx_observable>?) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_first") else { return nil }
  return ObservableHandle.make(h.observable.first())
}

@c(rx_last)
public func rx_last(_ src: UnsafeMutablePointer<rx_observable>?) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_last") else { return nil }
  return ObservableHandle.make(h.observable.last())
}

@c(rx_single)
public func rx_single(_ src: UnsafeMutablePointer<rx_observable>?) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_single") else { return nil }
  return ObservableHandle.make(h.observable.single())
}

@c(rx_ignore_elements)
public func rx_ignore_elements(_ src: UnsafeMutablePointer<rx_observable>?) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_ignore_elements") else { return nil }
  return ObservableHandle.make(h.observable.ignoreElements())
}

@c(rx_default_if_empty)
public func rx_default_if_empty(_ src: UnsafeMutablePointer<rx_observable>?, _ value: rx_value)
  -> UnsafeMutablePointer<rx_observable>?
{
  guard let h = ObservableHandle.from(src, "rx_default_if_empty") else { return nil }
  guard let v = RxValue.from(value, "rx_default_if_empty") else { return nil }
  return ObservableHandle.make(h.observable.ifEmpty(default: v))
}

@c(rx_switch_if_empty)
public func rx_switch_if_empty(
  _ src: UnsafeMutablePointer<rx_observable>?, _ fallback: UnsafeMutablePointer<rx_observable>?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_switch_if_empty") else { return nil }
  guard let f = ObservableHandle.from(fallback, "rx_switch_if_empty", "fallback") else { return nil }
  return ObservableHandle.make(h.observable.ifEmpty(switchTo: f.observable))
}

/// take while / until a C predicate (rx_take_while and its kin).
private func takeWhile(
  _ h: ObservableHandle, _ fn: rx_predicate_fn, _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?,
  _ name: StaticString, stopsOn: Bool, inclusive: Bool
) -> Observable<RxValue> {
  let f = CFunction(fn, ctx, ctxFree)
  return COperators.takeWhile(h.observable, f, name, stopsOn: stopsOn, inclusive: inclusive)
}
