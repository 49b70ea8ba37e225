import CRxc
@_spi(RxC) import RxCore

// rxc.h section 9, creation (here for its callback types): rx_generate, rx_using.

@c(rx_generate)
public func rx_generate(
  _ initial: rx_value, _ scheduler: UnsafeMutablePointer<rx_scheduler>?, _ condition: rx_predicate_fn?,
  _ iterate: rx_map_fn?, _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let condition else { setLastError("rx_generate: condition is NULL"); return nil }
  guard let iterate else { setLastError("rx_generate: iterate is NULL"); return nil }
  guard let v = RxValue.from(initial, "rx_generate") else { return nil }
  guard let on = SchedulerHandle.orCurrentThread(scheduler, "rx_generate") else { return nil }
  // One owner of ctx: the condition's (the step is held beside it, as long).
  return ObservableHandle.make(COperators.generate(v, on, CFunction(condition, ctx, ctxFree), CFunction(iterate, ctx, nil)))
}

@c(rx_using)
public func rx_using(
  _ create: rx_resource_fn?, _ use: rx_using_fn?, _ release: rx_resource_free_fn?,
  _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let create else { setLastError("rx_using: create is NULL"); return nil }
  guard let use else { setLastError("rx_using: use is NULL"); return nil }
  let context = CContext(ctx, ctxFree)
  return ObservableHandle.make(Observable<RxValue>.using(resource: {
    var err: UnsafeMutablePointer<rx_error>? = nil
    let pointer = create(context.ctx, &err)
    try CallbackResult.check(err, "rx_using")  // no resource was made: nothing to release
    return CResource(pointer, release: release, context: context)
  }, observableFactory: { resource in
    var err: UnsafeMutablePointer<rx_error>? = nil
    let made = use(context.ctx, (resource as! CResource).pointer, &err)
    return try CallbackResult.observable(made, err, "rx_using")
  }))
}
