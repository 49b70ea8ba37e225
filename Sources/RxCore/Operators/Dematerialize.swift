extension Observable {
  /// The inverse of `materialize`: turns event elements back into events.
  public func dematerialize<Inner>() -> Observable<Inner> where Element == Event<Inner> {
    DematerializeProducer(source: self, { $0 })
  }
}

extension Observable where Element == Value {
  /// The inverse of `materialize(pack:)`: `unpack` gives the event each element stands for;
  /// an error it throws fails the stream. One specialized operator instead of map then
  /// dematerialize.
  public func dematerialize(unpack: @escaping (Value) throws -> Event<Value>) -> Observable<Value> {
    ValueDematerializeProducer(source: self, unpack)
  }
}

extension Observable where Element == Event<Value> {
  /// `dematerialize` for Value, chosen over the generic one (whose sink would run
  /// unspecialized).
  public func dematerialize() -> Observable<Value> { ValueDematerializeEventsProducer(source: self, { $0 }) }
}

// rx:value-leaf copy=makeSink super=run
// rx:value-leaf name=ValueDematerializeEventsProducer args=Event<Value>,Value copy=makeSink super=run map=DematerializeSink:ValueDematerializeEventsSink
class DematerializeProducer<Source, Inner>: UnaryProducer<Source, Inner, (Source) throws -> Event<Inner>> {
  override func makeSink(_ observer: Observer<Inner>, cancel: any Cancelable) -> Sink<Source, Inner> {
    DematerializeSink(unpack: parameter, observer: observer, cancel: cancel)
  }
}

// rx:value-leaf on=handle next={handleNext(at: element)}
/// Open, with its body inlinable (`handleNext`, routed by `ElementSink`) and the unpacking a
/// hook (`unpack(at:)`), so that a leaf in another module reads its own event elements in place.
@_spi(RxC) open class DematerializeSink<Source, Inner>: ElementSink<Source, Inner> {
  /// Nil for a subclass that overrides `unpack(at:)`.
  @usableFromInline let unpacker: ((Source) throws -> Event<Inner>)?

  public init(unpack: ((Source) throws -> Event<Inner>)?, observer: Observer<Inner>, cancel: any Cancelable) {
    self.unpacker = unpack
    super.init(observer: observer, cancel: cancel)
  }

  /// The event the element at `element` (borrowed in place) stands for.
  @inlinable open func unpack(at element: UnsafePointer<Source>) throws -> Event<Inner> {
    try unpacker.unsafelyUnwrapped(element.pointee)
  }

  @inlinable @inline(__always) open override func handleNext(at element: UnsafePointer<Source>) {
    if isDisposed { return }  // no unpack after the end, as a map before it would not
    let inner: Event<Inner>
    do { inner = try unpack(at: element) } catch {
      forwardTerminal(.error(error))
      return
    }
    switch inner {
    case .next(let value): forwardNext(value)
    case .error, .completed: forwardTerminal(inner)
    }
  }
}

// rx:hand-leaf: reads the event in place (`unpack` overridden), not through the identity closure.
final class ValueDematerializeEventsSink: DematerializeSink<Event<Value>, Value> {
  /// The element is the event: read in place, not through the identity closure (a closure
  /// in the generic field is called through reabstraction thunks).
  override func unpack(at element: UnsafePointer<Event<Value>>) throws -> Event<Value> { element.pointee }
  override func on(_ event: Event<Event<Value>>) { handle(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Event<Value>>) { handleNext(at: element) }
}
