extension Observable {
  /// Transforms each element and forwards the results that are not nil; a thrown error
  /// fails the stream.
  public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
    CompactMapProducer(source: self, transform)
  }
}

extension Observable where Element == Value {
  public func compactMap(_ transform: @escaping (Value) throws -> Value?) -> Observable<Value> {
    ValueCompactMapProducer(source: self, transform)
  }
}

class CompactMapProducer<Source, Result>: UnaryProducer<Source, Result, (Source) throws -> Result?> {
  override func makeSink(_ observer: Observer<Result>, cancel: any Cancelable) -> Sink<Source, Result> {
    CompactMapSink(transform: parameter, observer: observer, cancel: cancel)
  }
}

/// Open, with its body inlinable (`handle`) and its callback a hook (`select`), so that a
/// leaf in another module calls its own function in place of a closure (see docs/SPECIALIZATION.md).
@_spi(RxC) open class CompactMapSink<Source, Result>: ElementSink<Source, Result> {
  /// Nil for a subclass that overrides `select(at:into:)`.
  @usableFromInline let transform: ((Source) throws -> Result?)?

  public init(transform: ((Source) throws -> Result?)?, observer: Observer<Result>, cancel: any Cancelable) {
    self.transform = transform
    super.init(observer: observer, cancel: cancel)
  }

  /// Sets `result` to the transform of the element at `element` (borrowed in place), or
  /// leaves it nil. With no generic result, a leaf's override needs no reabstraction thunk.
  @inlinable open func select(at element: UnsafePointer<Source>, into result: inout Result?) throws {
    result = try transform!(element.pointee)
  }

  @inlinable @inline(__always) open override func handleNext(at element: UnsafePointer<Source>) {
    // No user call once disposed: a racing upstream event must not reach the C callback.
    if isDisposed { return }
    var result: Result? = nil
    do { try select(at: element, into: &result) } catch {
      forwardTerminal(.error(error))
      return
    }
    if result == nil { return }
    // An Optional's payload is at its start (single-payload enum layout): forwarded in place.
    _withUnprotectedUnsafeMutablePointer(to: &result) {
      forwardNext(at: UnsafeRawPointer($0).assumingMemoryBound(to: Result.self))
    }
  }
}

// rx:hand-leaf: closure kept at its concrete type, lent the element by Value.withBorrowed.
// Specialized for Value (see Value): the overrides inline the generic bodies.
// The callback is kept at its concrete type (see `ValueTakeWhileProducer`).
final class ValueCompactMapProducer: CompactMapProducer<Value, Value> {
  let select: (Value) throws -> Value?

  override init(source: Observable<Value>, _ transform: @escaping (Value) throws -> Value?) {
    self.select = transform
    super.init(source: source, transform)
  }

  override func makeSink(_ observer: Observer<Value>, cancel: any Cancelable) -> Sink<Value, Value> {
    ValueCompactMapSink(select: select, observer: observer, cancel: cancel)
  }

  override func run(_ observer: Observer<Value>, cancel: any Cancelable) -> (sink: any Disposable, subscription: any Disposable) { super.run(observer, cancel: cancel) }
}

// rx:hand-leaf: closure kept at its concrete type, lent the element by Value.withBorrowed.
final class ValueCompactMapSink: CompactMapSink<Value, Value> {
  let selectValue: (Value) throws -> Value?

  init(select: @escaping (Value) throws -> Value?, observer: Observer<Value>, cancel: any Cancelable) {
    selectValue = select
    super.init(transform: nil, observer: observer, cancel: cancel)
  }

  override func select(at element: UnsafePointer<Value>, into result: inout Value?) throws { result = try Value.withBorrowed(at: element) { try selectValue($0) } }
  override func on(_ event: Event<Value>) { handle(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { handleNext(at: element) }
}
