import CRxc
import RxCore

// rxc.h section 6: rx_interval and rx_timer (ticks are RX_INT 0, 1, 2, ...).

@c(rx_interval)
public func rx_interval(_ period: Int64, _ scheduler: UnsafeMutablePointer<rx_scheduler>?)
  -> UnsafeMutablePointer<rx_observable>?
{
  guard period > 0 else {
    setLastError("rx_interval: period must be > 0 (got \(period))")
    return nil
  }
  guard let s = SchedulerHandle.from(scheduler, "rx_interval") else { return nil }
  guard s.scheduler.supportsPeriodic else {
    setLastError("rx_interval: the immediate and current-thread schedulers cannot run periodic work")
    return nil
  }
  return ObservableHandle.make(Observable<RxValue>.interval(period, scheduler: s.scheduler))
}

@c(rx_timer)
public func rx_timer(_ due: Int64, _ period: Int64, _ scheduler: UnsafeMutablePointer<rx_scheduler>?)
  -> UnsafeMutablePointer<rx_observable>?
{
  guard period != 0 else {
    setLastError("rx_timer: period 0 is rejected (negative means once)")
    return nil
  }
  guard let s = SchedulerHandle.from(scheduler, "rx_timer") else { return nil }
  if period > 0 && !s.scheduler.supportsPeriodic {
    setLastError("rx_timer: the immediate and current-thread schedulers cannot run periodic work")
    return nil
  }
  return ObservableHandle.make(Observable<RxValue>.timer(
    max(0, due), period: period > 0 ? period : nil, scheduler: s.scheduler))
}
