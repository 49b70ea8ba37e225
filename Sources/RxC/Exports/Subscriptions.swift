import CRxc
@_spi(RxC) import RxCore

// rxc.h section 5: subscribing and disposing; dispose bags and disposable containers (a
// container takes the caller's token only when the call succeeds).

@c(rx_subscribe)
public func rx_subscribe(_ source: UnsafeMutablePointer<rx_observable>?, _ observer: rx_observer)
  -> UnsafeMutablePointer<rx_disposable>?
{
  // The handle and its observable borrowed under the caller's reference: no retain/release.
  guard let p = Validate.pointer(source, .observable, "rx_subscribe", "source") else { return nil }
  let h = Unmanaged<ObservableHandle>.fromOpaque(p)
  let (sort, core) = h._withUnsafeGuaranteedRef { ($0.sort, $0.unretainedCore) }
  guard let core else { return subscribe(observer, toScalarOf: h) }  // rx_just
  switch sort {
  case .subject:  // (the hot paths of subscribe + dispose, and of just -> map -> subscribe)
    return ObserverEnd.subscribe(observer, to: unsafeBitCast(core, to: Unmanaged<SubjectObservable>.self))
  case .pipeline:
    return subscribe(observer, to: unsafeBitCast(core, to: Unmanaged<CPipeline>.self))
  case .observable:
    return subscribe(observer, to: core)
  }
}

/// Subscribes a C observer to a core observable and returns its owned token.
func subscribeC(_ observable: Observable<RxValue>, _ observer: rx_observer)
  -> UnsafeMutablePointer<rx_disposable>
{
  subscribe(observer, to: Unmanaged.passUnretained(observable))
}

@inline(never)
private func subscribe(_ observer: rx_observer, toScalarOf h: Unmanaged<ObservableHandle>)
  -> UnsafeMutablePointer<rx_disposable>
{
  @inline(__always) func run(_ h: ObservableHandle) -> UnsafeMutablePointer<rx_disposable> {
    ObserverEnd.runToEnd(observer) { $0(h.scalarC) }
  }
  return h._withUnsafeGuaranteedRef(run)
}

@inline(never)
private func subscribe(_ observer: rx_observer, to source: Unmanaged<CPipeline>) -> UnsafeMutablePointer<rx_disposable> {
  @inline(__always) func subscribe(_ pipeline: CPipeline) -> UnsafeMutablePointer<rx_disposable> {
    if pipeline.rootObservable == nil { return ObserverEnd.runToEnd(observer) { try pipeline.runScalar($0) } }
    return ObserverEnd.subscribe(observer, to: pipeline)
  }
  return source._withUnsafeGuaranteedRef(subscribe)
}

@inline(never)
private func subscribe(_ observer: rx_observer, to source: Unmanaged<Observable<RxValue>>)
  -> UnsafeMutablePointer<rx_disposable>
{
  // (Local inline funcs here and above: the closure literals stayed calls of their own.)
  @inline(__always) func subscribeTo(_ observable: Observable<RxValue>) -> UnsafeMutablePointer<rx_disposable> {
    if type(of: observable) == SubjectObservable.self {
      return ObserverEnd.subscribe(observer, to: Unmanaged.passUnretained(unsafeDowncast(observable, to: SubjectObservable.self)))
    }
    if type(of: observable) == CPipeline.self {
      return subscribe(observer, to: Unmanaged.passUnretained(unsafeDowncast(observable, to: CPipeline.self)))
    }
    return ObserverEnd.subscribe(observer, to: observable)
  }
  return source._withUnsafeGuaranteedRef(subscribeTo)
}

@c(rx_dispose)
public func rx_dispose(_ d: UnsafeMutablePointer<rx_disposable>?) -> rx_status {
  // A subscription token, reached without retain/release (the caller's reference keeps it).
  if let d, Validate.isLive(d, .disposable), ObserverEnd.isToken(d) { return ObserverEnd.dispose(token: d) }
  return disposeHandle(d)
}

@inline(never)
private func disposeHandle(_ d: UnsafeMutablePointer<rx_disposable>?) -> rx_status {
  guard let h = DisposableHandle.from(d, "rx_dispose") else { return invalid(d) }
  switch h {
  case .token(let o): o.dispose()
  case .handle(let h): h.dispose()
  }
  h.releaseC()
  return RX_OK
}

@c(rx_disposable_is_disposed)
public func rx_disposable_is_disposed(_ d: UnsafeMutablePointer<rx_disposable>?) -> Bool {
  DisposableHandle.from(d, "rx_disposable_is_disposed")?.isDisposed ?? false
}

@c(rx_dispose_bag_new)
public func rx_dispose_bag_new() -> UnsafeMutablePointer<rx_dispose_bag>? {
  DisposeBagHandle().toC().assumingMemoryBound(to: rx_dispose_bag.self)
}

@c(rx_dispose_bag_add)
public func rx_dispose_bag_add(_ bag: UnsafeMutablePointer<rx_dispose_bag>?, _ d: UnsafeMutablePointer<rx_disposable>?)
  -> rx_status
{
  guard let b = Validate.handle(bag, .disposeBag, as: DisposeBagHandle.self, "rx_dispose_bag_add", "bag")
  else { return invalid(bag) }
  guard DisposableHandle.from(d, "rx_dispose_bag_add") != nil else { return invalid(d) }
  b.bag.insert(DisposableHandle.take(d, "rx_dispose_bag_add")!)
  return RX_OK
}

@c(rx_dispose_bag_drain)
public func rx_dispose_bag_drain(_ bag: UnsafeMutablePointer<rx_dispose_bag>?) -> rx_status {
  guard let b = Validate.handle(bag, .disposeBag, as: DisposeBagHandle.self, "rx_dispose_bag_drain", "bag")
  else { return invalid(bag) }
  b.bag.drain()
  return RX_OK
}

@c(rx_disposable_create)
public func rx_disposable_create(_ action: rx_action_fn?, _ ctx: UnsafeMutableRawPointer?, _ ctxFree: rx_free_fn?)
  -> UnsafeMutablePointer<rx_disposable>?
{
  guard let action else {
    setLastError("rx_disposable_create: action is NULL")
    return nil
  }
  let context = CContext(ctx, ctxFree)
  return DisposableHandle.make(AnonymousDisposable { action(context.ctx) })
}

@c(rx_serial_disposable_new)
public func rx_serial_disposable_new() -> UnsafeMutablePointer<rx_disposable>? {
  SerialDisposableHandle().cPointer
}

@c(rx_serial_disposable_set)
public func rx_serial_disposable_set(_ serial: UnsafeMutablePointer<rx_disposable>?, _ d: UnsafeMutablePointer<rx_disposable>?)
  -> rx_status
{
  guard let s = Validate.handle(serial, .disposable, as: SerialDisposableHandle.self,
    "rx_serial_disposable_set", "serial", sortName: "a serial disposable")
  else { return invalid(serial) }
  guard DisposableHandle.from(d, "rx_serial_disposable_set")?.isSame(s) != true else {
    return fail(RX_EINVAL, "rx_serial_disposable_set: cannot set a serial disposable into itself")
  }
  guard let inner = DisposableHandle.take(d, "rx_serial_disposable_set") else { return invalid(d) }
  s.serial.set(inner)
  return RX_OK
}

@c(rx_single_assignment_disposable_new)
public func rx_single_assignment_disposable_new() -> UnsafeMutablePointer<rx_disposable>? {
  SingleAssignmentDisposableHandle().cPointer
}

@c(rx_single_assignment_disposable_set)
public func rx_single_assignment_disposable_set(_ sa: UnsafeMutablePointer<rx_disposable>?, _ d: UnsafeMutablePointer<rx_disposable>?)
  -> rx_status
{
  guard let s = Validate.handle(sa, .disposable, as: SingleAssignmentDisposableHandle.self,
    "rx_single_assignment_disposable_set", "sa", sortName: "a single-assignment disposable")
  else { return invalid(sa) }
  guard let h = DisposableHandle.from(d, "rx_single_assignment_disposable_set") else { return invalid(d) }
  guard !h.isSame(s) else {
    return fail(RX_EINVAL, "rx_single_assignment_disposable_set: cannot set a disposable into itself")
  }
  guard s.single.trySet(h.disposable) else {
    return fail(RX_ESTATE, "rx_single_assignment_disposable_set: already set")
  }
  h.releaseC()
  return RX_OK
}

@c(rx_composite_disposable_new)
public func rx_composite_disposable_new() -> UnsafeMutablePointer<rx_disposable>? {
  CompositeDisposableHandle().cPointer
}

@c(rx_composite_disposable_add)
public func rx_composite_disposable_add(_ composite: UnsafeMutablePointer<rx_disposable>?, _ d: UnsafeMutablePointer<rx_disposable>?)
  -> rx_status
{
  guard let c = Validate.handle(composite, .disposable, as: CompositeDisposableHandle.self,
    "rx_composite_disposable_add", "composite", sortName: "a composite disposable")
  else { return invalid(composite) }
  guard DisposableHandle.from(d, "rx_composite_disposable_add")?.isSame(c) != true else {
    return fail(RX_EINVAL, "rx_composite_disposable_add: cannot add a composite to itself")
  }
  guard let inner = DisposableHandle.take(d, "rx_composite_disposable_add") else { return invalid(d) }
  c.composite.insert(inner)
  return RX_OK
}
