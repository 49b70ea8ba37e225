extension Observable {
  /// Each element with its index (0, 1, ...) in the source; `RxError.overflow` if the index
  /// would pass Int.max.
  public func enumerated() -> Observable<(index: Int, element: Element)> {
    EnumeratedProducer(source: self, { (index: $0, element: $1) })
  }
}

extension Observable where Element == Value {
  /// `enumerated` with the pair packed into one element by `pack` (the C layer's array
  /// box): one specialized operator instead of enumerated then map.
  public func enumerated(pack: @escaping (Int, Value) -> Value) -> Observable<Value> {
    ValueEnumeratedProducer(source: self, pack)
  }

  /// `enumerated` for Value, chosen over the generic one (whose sink would run unspecialized).
  public func enumerated() -> Observable<(index: Int, element: Value)> {
    ValueEnumeratedPairsProducer(source: self, { (index: $0, element: $1) })
  }
}

class EnumeratedProducer<Element, Result>: UnaryProducer<Element, Result, (Int, Element) -> Result> {
  override func makeSink(_ observer: Observer<Result>, cancel: any Cancelable) -> Sink<Element, Result> {
    EnumeratedSink(pack: parameter, observer: observer, cancel: cancel)
  }
}

/// Open, with its body inlinable (`handleNext`, routed by `ElementSink`) and the packing a
/// hook (`pack`), so that a leaf in another module packs each pair its own way (the C layer
/// reuses its array box).
@_spi(RxC) open class EnumeratedSink<Element, Result>: ElementSink<Element, Result> {
  /// Nil for a subclass that overrides `pack(_:at:)`.
  @usableFromInline let packer: ((Int, Element) -> Result)?
  @usableFromInline final var index = 0

  public init(pack: ((Int, Element) -> Result)?, observer: Observer<Result>, cancel: any Cancelable) {
    self.packer = pack
    super.init(observer: observer, cancel: cancel)
  }

  /// The pair of `index` and the element at `element` (borrowed in place) as one result.
  @inlinable open func pack(_ index: Int, at element: UnsafePointer<Element>) -> Result {
    packer.unsafelyUnwrapped(index, element.pointee)
  }

  @inlinable @inline(__always) open override func handleNext(at element: UnsafePointer<Element>) {
    guard let current = takeIndex() else { return }
    forwardNext(pack(current, at: element))
  }

  /// The index of the element at hand, the count moved past it; nil when it would overflow
  /// (the stream has then failed with `RxError.overflow`).
  @inlinable @inline(__always) public final func takeIndex() -> Int? {
    let current = index
    let (next, overflow) = index.addingReportingOverflow(1)
    if overflow {
      forwardTerminal(.error(RxError.overflow))
      return nil
    }
    index = next
    return current
  }
}

// rx:hand-leaf: closure kept at its concrete type, lent the element by Value.withBorrowed.
// Specialized for Value (see Value): the overrides inline the generic bodies.
// The packing closure is kept at its concrete type (see `ValueTakeWhileProducer`): through
// the generic field each call also allocated a thunk context.
final class ValueEnumeratedProducer: EnumeratedProducer<Value, Value> {
  let packValue: (Int, Value) -> Value

  override init(source: Observable<Value>, _ pack: @escaping (Int, Value) -> Value) {
    packValue = pack
    super.init(source: source, pack)
  }

  override func makeSink(_ observer: Observer<Value>, cancel: any Cancelable) -> Sink<Value, Value> {
    ValueEnumeratedSink(packValue: packValue, observer: observer, cancel: cancel)
  }

  override func run(_ observer: Observer<Value>, cancel: any Cancelable) -> (sink: any Disposable, subscription: any Disposable) { super.run(observer, cancel: cancel) }
}

// rx:hand-leaf: closure kept at its concrete type, lent the element by Value.withBorrowed.
final class ValueEnumeratedSink: EnumeratedSink<Value, Value> {
  let packValue: (Int, Value) -> Value

  init(packValue: @escaping (Int, Value) -> Value, observer: Observer<Value>, cancel: any Cancelable) {
    self.packValue = packValue
    super.init(pack: nil, observer: observer, cancel: cancel)
  }

  override func pack(_ index: Int, at element: UnsafePointer<Value>) -> Value {
    Value.withBorrowed(at: element) { packValue(index, $0) }
  }
  override func on(_ event: Event<Value>) { handle(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { handleNext(at: element) }
}

// rx:hand-leaf: builds the pair in place (`pack` overridden, no closure): not the generic body.
/// `enumerated()` for Value: (index, element) pairs.
final class ValueEnumeratedPairsProducer: EnumeratedProducer<Value, (index: Int, element: Value)> {
  override func makeSink(_ observer: Observer<(index: Int, element: Value)>, cancel: any Cancelable) -> Sink<Value, (index: Int, element: Value)> {
    ValueEnumeratedPairsSink(pack: nil, observer: observer, cancel: cancel)
  }

  override func run(_ observer: Observer<(index: Int, element: Value)>, cancel: any Cancelable) -> (sink: any Disposable, subscription: any Disposable) { super.run(observer, cancel: cancel) }
}

// rx:hand-leaf: builds the pair in place (`pack` overridden, no closure): not the generic body.
final class ValueEnumeratedPairsSink: EnumeratedSink<Value, (index: Int, element: Value)> {
  override func pack(_ index: Int, at element: UnsafePointer<Value>) -> (index: Int, element: Value) {
    (index: index, element: element.pointee)
  }
  override func on(_ event: Event<Value>) { handle(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { handleNext(at: element) }
}
