/// Whether the element that ends take(while:) / take(until:) is forwarded before the
/// completion.
public enum TakeBehavior: Sendable {
  case inclusive
  case exclusive
}

extension Observable {
  /// Forwards elements while `predicate` holds; completes at the first that fails it,
  /// forwarding that one first when `behavior` is `.inclusive`.
  public func take(
    while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive
  ) -> Observable<Element> {
    TakeWhileProducer(source: self, predicate: predicate, stopsOn: false, behavior: behavior)
  }

  /// Forwards elements until `predicate` holds for one; completes there, forwarding that
  /// one first when `behavior` is `.inclusive`.
  public func take(
    until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive
  ) -> Observable<Element> {
    TakeWhileProducer(source: self, predicate: predicate, stopsOn: true, behavior: behavior)
  }
}

extension Observable where Element == Value {
  public func take(
    while predicate: @escaping (Value) throws -> Bool, behavior: TakeBehavior = .exclusive
  ) -> Observable<Value> {
    ValueTakeWhileProducer(source: self, predicate: predicate, stopsOn: false, behavior: behavior)
  }

  public func take(
    until predicate: @escaping (Value) throws -> Bool, behavior: TakeBehavior = .exclusive
  ) -> Observable<Value> {
    ValueTakeWhileProducer(source: self, predicate: predicate, stopsOn: true, behavior: behavior)
  }
}

/// take(while:) and take(until:) in one: the stream ends at the first element for which
/// the predicate answers `stopsOn`.
class TakeWhileProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  let predicate: (Element) throws -> Bool
  let stopsOn: Bool
  let inclusive: Bool

  init(source: Observable<Element>, predicate: @escaping (Element) throws -> Bool, stopsOn: Bool, behavior: TakeBehavior) {
    self.source = source
    self.predicate = predicate
    self.stopsOn = stopsOn
    self.inclusive = behavior == .inclusive
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = TakeWhileSink(predicate: predicate, stopsOn: stopsOn, inclusive: inclusive, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

/// Open, with its body inlinable (`handle`) and its callback a hook (`test`), so that a
/// leaf in another module calls its own function in place of a closure (see docs/SPECIALIZATION.md).
@_spi(RxC) open class TakeWhileSink<Element>: Sink<Element, Element> {
  /// Nil for a subclass that overrides `test(at:)`.
  @usableFromInline let predicate: ((Element) throws -> Bool)?
  @usableFromInline let stopsOn: Bool
  @usableFromInline let inclusive: Bool

  public init(
    predicate: ((Element) throws -> Bool)?, stopsOn: Bool, inclusive: Bool, observer: Observer<Element>,
    cancel: any Cancelable
  ) {
    self.predicate = predicate
    self.stopsOn = stopsOn
    self.inclusive = inclusive
    super.init(observer: observer, cancel: cancel)
  }

  /// The predicate of the element at `element`, borrowed in place (a leaf that hands it to a
  /// C function copies nothing).
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
    let stop: Bool
    do { stop = try test(at: element) == stopsOn } catch {
      forwardTerminal(.error(error))
      return
    }
    if !stop {
      forwardNext(at: element)
      return
    }
    if inclusive { forwardNext(at: element) }
    forwardTerminal(.completed)
  }
}

// rx:hand-leaf: closure kept at its concrete type, lent the element by Value.withBorrowed.
// Specialized for Value (see Value): the overrides inline the generic bodies.
// The predicate is kept at its concrete type: through the generic field it would be called
// through reabstraction thunks that pass the element indirectly (a store and a wider reload
// per element that the CPU cannot forward: several ns).
final class ValueTakeWhileProducer: TakeWhileProducer<Value> {
  let test: (Value) throws -> Bool

  override init(source: Observable<Value>, predicate: @escaping (Value) throws -> Bool, stopsOn: Bool, behavior: TakeBehavior) {
    test = predicate
    super.init(source: source, predicate: predicate, stopsOn: stopsOn, behavior: behavior)
  }

  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueTakeWhileSink(test: test, stopsOn: stopsOn, inclusive: inclusive, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

// rx:hand-leaf: closure kept at its concrete type, lent the element by Value.withBorrowed.
final class ValueTakeWhileSink: TakeWhileSink<Value> {
  let predicateOfValue: (Value) throws -> Bool

  init(test: @escaping (Value) throws -> Bool, stopsOn: Bool, inclusive: Bool, observer: Observer<Value>, cancel: any Cancelable) {
    predicateOfValue = test
    super.init(predicate: nil, stopsOn: stopsOn, inclusive: inclusive, observer: observer, cancel: cancel)
  }

  override func test(at element: UnsafePointer<Value>) throws -> Bool { try Value.withBorrowed(at: element) { try predicateOfValue($0) } }
  override func on(_ event: Event<Value>) { handle(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { handleNext(at: element) }
}
