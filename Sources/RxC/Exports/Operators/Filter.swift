import CRxc
@_spi(RxC) import RxCore

// rxc.h section 9, filter (the timed ones are in TimeOperators.swift).

// rx:export rx_take: ObservableHandle.make(CPipeline.joining(src, .take(Int(clamping: n))), else: { src.observable.take(Int(clamping: n)) })
// rx:export rx_skip: ObservableHandle.make(CPipeline.joining(src, .skip(Int(clamping: n))), else: { src.observable.skip(Int(clamping: n)) })
// rx:export rx_take_until: ObservableHandle.make(src.observable.take(until: other.observable))
// rx:export rx_skip_until: ObservableHandle.make(src.observable.skip(until: other.observable))
// rx:export rx_take_last: ObservableHandle.make(src.observable.takeLast(Int(clamping: n)))
// rx:export rx_skip_last: ObservableHandle.make(src.observable.skipLast(Int(clamping: n)))
// rx:export rx_element_at: ObservableHandle.make(src.observable.element(at: Int(clamping: i)))
// rx:export rx_first: ObservableHandle.make(src.observable.first())
// rx:export rx_last: ObservableHandle.make(src.observable.last())
// rx:export rx_single: ObservableHandle.make(src.observable.single())
// rx:export rx_ignore_elements: ObservableHandle.make(src.observable.ignoreElements())
// rx:export rx_switch_if_empty: ObservableHandle.make(src.observable.ifEmpty(switchTo: fallback.observable))
// rx:export rx_filter: ObservableHandle.make(CPipeline.filter(src, fn, ctx, ctxFree))
// rx:export rx_take_while: ObservableHandle.make(takeWhile(src, fn, ctx, ctxFree, "rx_take_while", stopsOn: false, inclusive: false))
// rx:export rx_take_while_inclusive: ObservableHandle.make(takeWhile(src, fn, ctx, ctxFree, "rx_take_while_inclusive", stopsOn: false, inclusive: true))
// rx:export rx_take_until_predicate: ObservableHandle.make(takeWhile(src, fn, ctx, ctxFree, "rx_take_until_predicate", stopsOn: true, inclusive: inclusive))
// rx:export rx_skip_while: ObservableHandle.make(COperators.skipWhile(src.observable, CFunction(fn, ctx, ctxFree), "rx_skip_while"))
// rx:export rx_default_if_empty: ObservableHandle.make(src.observable.ifEmpty(default: value))

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

/// take while / until a C predicate (rx_take_while and its kin).
func takeWhile(
  _ h: ObservableHandle, _ fn: rx_predicate_fn, _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?,
  _ name: StaticString, stopsOn: Bool, inclusive: Bool
) -> Observable<RxValue> {
  let f = CFunction(fn, ctx, ctxFree)
  return COperators.takeWhile(h.observable, f, name, stopsOn: stopsOn, inclusive: inclusive)
}
