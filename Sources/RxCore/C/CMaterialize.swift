import CRxc

/// rx_materialize: each event packed into an RX_EVENT box; a `.next` refills the box sent
/// last when the subscriber kept no reference to it (`SpareBox`), so a stream of elements
/// allocates one box, not one per element. The Rx behaviour is the core's (`handle`).
final class CMaterializeSink: MaterializeSink<Value, Value> {
  var spare = SpareBox<EventBox>()

  override func on(_ event: Event<Value>) { handle(event) }
  override var takesNextByPointer: Bool { true }
  /// The spare box lent to the subscriber by pointer (`SpareBox.lend`); a delivery that
  /// re-enters (an upstream that does not serialize) packs a box of its own.
  override func onNext(at element: UnsafePointer<Value>) {
    if spare.lending || isDisposed { return handleNext(at: element) }
    @inline(__always) func deliver(_ p: UnsafePointer<Value>) { forwardNext(at: p) }  // (a closure stayed a call)
    spare.lend(
      refill: { $0.event = .next(Value.copy(at: element)) }, make: { EventBox(.next(Value.copy(at: element))) },
      to: deliver)
  }

  override func packNext(at element: UnsafePointer<Value>) -> Value {
    let event = Event.next(Value.copy(at: element))
    return spare.next(refill: { $0.event = event }, make: { EventBox(event) })
  }

  override func pack(_ event: Event<Value>) -> Value {
    switch event {
    case .next(var element): return packNext(at: &element)
    case .error(let error): return EventBox.errorValue(error)
    case .completed: return .boxed(EventBox(event))
    }
  }
}

/// rx_dematerialize: the event in each RX_EVENT box, read in place (the kind is the box's
/// own: no dynamic cast); any other value fails the stream.
final class CDematerializeSink: DematerializeSink<Value, Value> {
  init(observer: Observer<Value>, cancel: any Cancelable) {
    super.init(unpack: nil, observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Value>) { handle(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { handleNext(at: element) }

  override func unpack(at element: UnsafePointer<Value>) throws -> Event<Value> {
    guard case .boxed(let object) = element.pointee, unsafeDowncast(object, to: ValueBox.self).valueKind == RX_EVENT else {
      throw CAdapt.typeError("rx_dematerialize: the source emitted a value that is not an RX_EVENT")
    }
    return unsafeDowncast(object, to: EventBox.self).event
  }
}
