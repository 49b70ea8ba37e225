import CRxc

/// rx_materialize: each event packed into an RX_EVENT box; a `.next` refills the box sent
/// last when the subscriber kept no reference to it (`SpareBox`), so a stream of elements
/// allocates one box, not one per element. The Rx behaviour is the core's (`handle`).
final class CMaterializeSink: MaterializeSink<Value, Value> {
  var spare = SpareBox<EventBox>()
  /// A `.next` is being delivered in the spare box, unretained (see `onNext(at:)`).
  var lending = false

  init(observer: Observer<Value>, cancel: any Cancelable) {
    super.init(pack: nil, observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Value>) { handle(event) }
  override var takesNextByPointer: Bool { true }
  /// The spare box lent to the subscriber by pointer: no retain and release of it per element.
  /// A delivery that re-enters (an upstream that does not serialize) packs a box of its own.
  override func onNext(at element: UnsafePointer<Value>) {
    if lending || isDisposed { return handleNext(at: element) }
    let box: Unmanaged<EventBox>
    if let kept = spare.reusable() {
      kept._withUnsafeGuaranteedRef { $0.event = .next(Value.copy(at: element)) }
      box = kept
    } else {
      box = spare.keep(EventBox(.next(Value.copy(at: element))))
    }
    lending = true
    Value.withBorrowedBoxed(unsafeBitCast(box, to: Unmanaged<AnyObject>.self)) { forwardNext(at: $0) }
    lending = false
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
