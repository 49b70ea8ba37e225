import CRxc
@_spi(RxC) import RxCore

// rxc.h section 5: dispose bags and disposable containers. A container takes the
// caller's token only when the call succeeds.

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
