extension Observable {
  /// Drops elements equal (by `comparer`) to the previous one; a thrown error fails the stream.
  public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool) -> Observable<Element> {
    DistinctUntilChangedProducer(source: self, comparer)
  }
}

extension Observable where Element: Equatable {
  public func distinctUntilChanged() -> Observable<Element> { distinctUntilChanged(==) }
}

extension Observable where Element == Value {
  public func distinctUntilChanged(_ comparer: @escaping (Value, Value) throws -> Bool) -> Observable<Value> {
    ValueDistinctUntilChangedProducer(source: self, comparer)
  }
}

class DistinctUntilChangedProducer<Element>: UnaryProducer<Element, Element, (Element, Element) throws -> Bool> {
  override func makeSink(_ observer: Observer<Element>, cancel: any Cancelable) -> Sink<Element, Element> {
    DistinctUntilChangedSink(comparer: parameter, observer: observer, cancel: cancel)
  }
}

/// Open, with its body inlinable (`handle`) and its callback a hook (`same`), so that a
/// leaf in another module calls its own function in place of a closure (see docs/SPECIALIZATION.md).
@_spi(RxC) open class DistinctUntilChangedSink<Element>: ElementSink<Element, Element> {
  /// Nil for a subclass that overrides `same(at:_:)`.
  @usableFromInline let comparer: ((Element, Element) throws -> Bool)?
  @usableFromInline final var previous: Element?

  public init(comparer: ((Element, Element) throws -> Bool)?, observer: Observer<Element>, cancel: any Cancelable) {
    self.comparer = comparer
    super.init(observer: observer, cancel: cancel)
  }

  /// Whether the elements at `a` and `b` are the same, borrowed in place (a leaf that hands
  /// them to a C function copies neither).
  @inlinable open func same(at a: UnsafePointer<Element>, _ b: UnsafePointer<Element>) throws -> Bool {
    try comparer!(a.pointee, b.pointee)
  }

  @inlinable open override func terminate(_ event: Event<Element>) {
    previous = nil
    forwardTerminal(event)
  }

  @inlinable @inline(__always) open override func handleNext(at element: UnsafePointer<Element>) {
    if isDisposed { return }
    if previous != nil {
      let same: Bool
      // An Optional's payload is at its start (single-payload enum layout), so `previous`
      // is compared in place.
      do {
        same = try withUnsafeMutablePointer(to: &previous) {
          try self.same(at: UnsafeRawPointer($0).assumingMemoryBound(to: Element.self), element)
        }
      } catch {
        forwardTerminal(.error(error))
        return
      }
      if same { return }
    }
    withUnsafeMutablePointer(to: &previous) { Slot.assign($0, copying: element) }
    forwardNext(at: element)
  }
}

// rx:hand-leaf: closure kept at its concrete type, lent the element by Value.withBorrowed.
// Specialized for Value (see Value): the overrides inline the generic bodies.
// The callback is kept at its concrete type (see `ValueTakeWhileProducer`).
final class ValueDistinctUntilChangedProducer: DistinctUntilChangedProducer<Value> {
  let equal: (Value, Value) throws -> Bool

  override init(source: Observable<Value>, _ comparer: @escaping (Value, Value) throws -> Bool) {
    self.equal = comparer
    super.init(source: source, comparer)
  }

  override func makeSink(_ observer: Observer<Value>, cancel: any Cancelable) -> Sink<Value, Value> {
    ValueDistinctUntilChangedSink(equal: equal, observer: observer, cancel: cancel)
  }

  override func run(_ observer: Observer<Value>, cancel: any Cancelable) -> (sink: any Disposable, subscription: any Disposable) { super.run(observer, cancel: cancel) }
}

// rx:hand-leaf: closure kept at its concrete type, lent the element by Value.withBorrowed.
final class ValueDistinctUntilChangedSink: DistinctUntilChangedSink<Value> {
  let equalValues: (Value, Value) throws -> Bool

  init(equal: @escaping (Value, Value) throws -> Bool, observer: Observer<Value>, cancel: any Cancelable) {
    equalValues = equal
    super.init(comparer: nil, observer: observer, cancel: cancel)
  }

  override func same(at a: UnsafePointer<Value>, _ b: UnsafePointer<Value>) throws -> Bool { try Value.withBorrowed(at: a, b) { try equalValues($0, $1) } }
  override func on(_ event: Event<Value>) { handle(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { handleNext(at: element) }
}
