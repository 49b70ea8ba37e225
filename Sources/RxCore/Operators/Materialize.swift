extension Observable {
  /// Each event as an element; after the source's terminal event (emitted as an element)
  /// the stream completes.
  public func materialize() -> Observable<Event<Element>> { MaterializeProducer(source: self, { $0 }) }
}

extension Observable where Element == Value {
  /// `materialize` for Value, chosen over the generic one (whose sink would run unspecialized).
  public func materialize() -> Observable<Event<Value>> { ValueMaterializeEventsProducer(source: self, { $0 }) }

  /// `materialize` with each event packed into one element by `pack` (the C layer's event
  /// box): one specialized operator instead of materialize then map.
  public func materialize(pack: @escaping (Event<Value>) -> Value) -> Observable<Value> {
    ValueMaterializeProducer(source: self, pack)
  }
}

// rx:value-leaf copy=makeSink super=run
// rx:value-leaf name=ValueMaterializeEventsProducer args=Value,Event<Value> copy=makeSink super=run map=MaterializeSink:ValueMaterializeEventsSink
class MaterializeProducer<Element, Result>: UnaryProducer<Element, Result, (Event<Element>) -> Result> {
  override func makeSink(_ observer: Observer<Result>, cancel: any Cancelable) -> Sink<Element, Result> {
    MaterializeSink(pack: parameter, observer: observer, cancel: cancel)
  }
}

// rx:value-leaf on next=copy
/// Open, with its body inlinable (`handle`) and the packing a hook (`pack`), so that a leaf
/// in another module packs each event its own way (the C layer reuses its event box).
@_spi(RxC) open class MaterializeSink<Element, Result>: Sink<Element, Result> {
  /// Nil for a subclass that overrides `pack(_:)`.
  @usableFromInline let packer: ((Event<Element>) -> Result)?

  public init(pack: ((Event<Element>) -> Result)?, observer: Observer<Result>, cancel: any Cancelable) {
    self.packer = pack
    super.init(observer: observer, cancel: cancel)
  }

  @inlinable open func pack(_ event: Event<Element>) -> Result { packer.unsafelyUnwrapped(event) }

  /// `pack(.next(element))` of the element at `element`, borrowed in place.
  @inlinable open func packNext(at element: UnsafePointer<Element>) -> Result { pack(.next(element.pointee)) }

  open override func on(_ event: Event<Element>) { handle(event) }

  @inlinable @inline(__always) public final func handle(_ event: Event<Element>) {
    forwardNext(pack(event))
    if event.isStopEvent { forwardTerminal(.completed) }
  }

  /// A `.next` event's body: what `onNext(at:)` of a leaf runs (no `Event` built).
  @inlinable @inline(__always) public final func handleNext(at element: UnsafePointer<Element>) {
    forwardNext(packNext(at: element))
  }
}

// rx:hand-leaf: packs the event in place (`pack`, `packNext` overridden), not through the identity closure.
final class ValueMaterializeEventsSink: MaterializeSink<Value, Event<Value>> {
  /// The event is the element: no identity closure called through the generic field.
  override func pack(_ event: Event<Value>) -> Event<Value> { event }
  override func packNext(at element: UnsafePointer<Value>) -> Event<Value> { .next(element.pointee) }
  override func on(_ event: Event<Value>) { super.on(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { handleNext(at: element) }
}
