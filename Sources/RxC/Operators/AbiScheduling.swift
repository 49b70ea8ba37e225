import CRxc
import RxCore

// rxc.h section 9: scheduling: rx_subscribe_on and rx_observe_on.

@c(rx_subscribe_on)
public func rx_subscribe_on(_ src: UnsafeMutablePointer<rx_observable>?, _ scheduler: UnsafeMutablePointer<rx_scheduler>?)
  -> UnsafeMutablePointer<rx_observable>?
{
  guard let o = ObservableHandle.from(src, "rx_subscribe_on"),
    let s = SchedulerHandle.from(scheduler, "rx_subscribe_on")
  else { return nil }
  return ObservableHandle.make(SubscribeOn(source: o.observable, scheduler: s.scheduler) {
    RxSubscribeOnSink(observer: $0, cancel: $1)
  })
}

/// SubscribeOnSink for RxValue: its override is specialized code (see ObserveOn.init).
final class RxSubscribeOnSink: SubscribeOnSink<RxValue> {
  override func on(_ event: Event<RxValue>) { super.on(event) }
}

@c(rx_observe_on)
public func rx_observe_on(_ src: UnsafeMutablePointer<rx_observable>?, _ scheduler: UnsafeMutablePointer<rx_scheduler>?)
  -> UnsafeMutablePointer<rx_observable>?
{
  guard let o = ObservableHandle.from(src, "rx_observe_on"),
    let s = SchedulerHandle.from(scheduler, "rx_observe_on")
  else { return nil }
  return ObservableHandle.make(ObserveOn(source: o.observable, scheduler: s.scheduler) {
    RxObserveOnSink(observer: $0, cancel: $1, scheduler: $2)
  })
}

/// ObserveOnSink for RxValue: its override is specialized code (see ObserveOn.init).
final class RxObserveOnSink: ObserveOnSink<RxValue> {
  override func on(_ event: Event<RxValue>) { super.on(event) }
  override func onNext(at element: UnsafePointer<RxValue>) { pushNext(RxValue.copy(at: element)) }
  override var takesNextByPointer: Bool { true }
  override func onNext(contentsOf elements: UnsafeBufferPointer<RxValue>) { super.onNext(contentsOf: elements) }
  override func drainLoop() { super.drainLoop() }
}
