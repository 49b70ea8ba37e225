import CRxc
import RxCore

// rxc.h section 9: utility family (rx_delay* live with the schedulers).

@c(rx_do)
public func rx_do(_ src: UnsafeMutablePointer<rx_observable>?, _ tap: rx_observer, _ ctxFree: rx_free_fn?)
  -> UnsafeMutablePointer<rx_observable>?
{
  guard let h = ObservableHandle.from(src, "rx_do") else { return nil }
  // Each subscription gets its own CObserver on the tap's callbacks, so the tap gets the
  // same guarantees as a subscriber (no overlap, on_disposed once and last). The factory
  // holds the context; every DoSink holds the factory.
  let context = CContext(tap.ctx, ctxFree)
  return ObservableHandle.make(h.observable.do(tap: {
    withExtendedLifetime(context) { CObserver(tap) }
  }))
}

@c(rx_materialize)
public func rx_materialize(_ src: UnsafeMutablePointer<rx_observable>?) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_materialize") else { return nil }
  return ObservableHandle.make(h.observable.materialize(pack: { event -> RxValue in
    switch event {
    case .error(let error): return EventBox.errorValue(error)
    default: return .boxed(EventBox(event))
    }
  }))
}

@c(rx_dematerialize)
public func rx_dematerialize(_ src: UnsafeMutablePointer<rx_observable>?) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, "rx_dematerialize") else { return nil }
  return ObservableHandle.make(h.observable.dematerialize(unpack: { v -> Event<RxValue> in
    guard case .boxed(let box) = v, let event = box as? EventBox else {
      throw CAdapt.typeError("rx_dematerialize: the source emitted a value that is not an RX_EVENT")
    }
    return event.event
  }))
}
