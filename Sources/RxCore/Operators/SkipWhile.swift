extension Observable {
  /// Drops elements while `predicate` holds, then forwards everything from the first that
  /// fails it.
  public func skip(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
    SkipWhileProducer(source: self, predicate: predicate)
  }
}

extension Observable where Element == Value {
  public func skip(while predicate: @escaping (Value) throws -> Bool) -> Observable<Value> {
    ValueSkipWhileProducer(source: self, predicate: predicate)
  }
}

class SkipWhileProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  let predicate: (Element) throws -> Bool

  init(source: Observable<Element>, predicate: @escaping (Element) throws -> Bool) {
    self.source = source
    self.predicate = predicate
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = SkipWhileSink(predicate: predicate, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

/// Open, with its body inlinable (`handle`) and its callback a hook (`test`), so that a
/// leaf in another module calls its own function in place of a closure (see docs/SPECIALIZATION.md).
@_spi(RxC) open class SkipWhileSink<Element>: Sink<Element, Element> {
  /// Nil for a subclass that overrides `test(at:)`.
  @usableFromInline let predicate: ((Element) throws -> Bool)?
  @usableFromInline final var skipping = true

  public init(predicate: ((Element) throws -> Bool)?, observer: Observer<Element>, cancel: any Cancelable) {
    self.predicate = predicate
    super.init(observer: observer, cancel: cancel)
  }

  /// The predicate of the element at `element`, borrowed in place (see TakeWhileSink).
  @inlinable open func test(at element: UnsafePointer<Element>) throws -> Bool {
    try predicate!(element.pointee)
  }

  open override func on(_ event: Event<Element>) { handle(event) }

  @inlinable @inline(__always) public final func handle(_ event: Event<Element>) {
    switch event {
    case .next(let element): handleNext(element)
    case _ where isDisposed: return
    case .error, .completed: forwardTerminal(event)
    }
  }

  /// A `.next` event's body: what `onNext(at:)` of a leaf runs (no `Event` built).
  @inlinable @inline(__always) public final func handleNext(_ element: Element) {
    _withUnprotectedUnsafePointer(to: element) { handleNext(at: $0) }
  }

  /// `handleNext` of the element at `element`: what `onNext(at:)` of a leaf runs.
  @inlinable @inline(__always) public final func handleNext(at element: UnsafePointer<Element>) {
    if isDisposed { return }
    if skipping {
      do { skipping = try test(at: element) } catch {
        forwardTerminal(.error(error))
        return
      }
      if skipping { return }
    }
    forwardNext(at: element)
  }
}

// rx:hand-leaf: closure kept at its concrete type, lent the element by Value.withBorrowed.
// Specialized for Value (see Value): the overrides inline the generic bodies.
// The callback is kept at its concrete type (see `ValueTakeWhileProducer`).
final class ValueSkipWhileProducer: SkipWhileProducer<Value> {
  let test: (Value) throws -> Bool

  override init(source: Observable<Value>, predicate: @escaping (Value) throws -> Bool) {
    self.test = predicate
    super.init(source: source, predicate: predicate)
  }

  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueSkipWhileSink(test: test, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

// rx:hand-leaf: closure kept at its concrete type, lent the element by Value.withBorrowed.
final class ValueSkipWhileSink: SkipWhileSink<Value> {
  let predicateOfValue: (Value) throws -> Bool

  init(test: @escaping (Value) throws -> Bool, observer: Observer<Value>, cancel: any Cancelable) {
    predicateOfValue = test
    super.init(predicate: nil, observer: observer, cancel: cancel)
  }

  override func test(at element: UnsafePointer<Value>) throws -> Bool { try Value.withBorrowed(at: element) { try predicateOfValue($0) } }
  override func on(_ event: Event<Value>) { handle(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { handleNext(at: element) }
}
