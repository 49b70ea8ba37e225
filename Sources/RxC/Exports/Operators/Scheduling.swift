import CRxc
@_spi(RxC) import RxCore

// rxc.h section 9, scheduling: rx_subscribe_on and rx_observe_on.

// rx:export rx_subscribe_on: ObservableHandle.make(src.observable.subscribe(on: scheduler))
// rx:export rx_observe_on: ObservableHandle.make(src.observable.observe(on: scheduler))

