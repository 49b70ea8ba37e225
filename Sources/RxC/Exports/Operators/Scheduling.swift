import CRxc
@_spi(RxC) import RxCore

// rxc.h section 9, scheduling: rx_subscribe_on and rx_observe_on.

@c(rx_subscribe_on)
public func rx_subscribe_on(_ src: UnsafeMutablePointer<rx_observable>?, _ scheduler: UnsafeMutablePointer<rx_scheduler>?)
  -> UnsafeMutablePointer<rx_observable>?
{
  guard let o = ObservableHandle.from(src, "rx_subscribe_on"),
    let s = SchedulerHandle.from(scheduler, "rx_subscribe_on")
  else { return nil }
  return ObservableHandle.make(o.observable.subscribe(on: s.scheduler))
}

@c(rx_observe_on)
public func rx_observe_on(_ src: UnsafeMutablePointer<rx_observable>?, _ scheduler: UnsafeMutablePointer<rx_scheduler>?)
  -> UnsafeMutablePointer<rx_observable>?
{
  guard let o = ObservableHandle.from(src, "rx_observe_on"),
    let s = SchedulerHandle.from(scheduler, "rx_observe_on")
  else { return nil }
  return ObservableHandle.make(o.observable.observe(on: s.scheduler))
}
