/// filter, skip(while:) and take(while:)/take(until:): one producer and one sink that ask a
/// predicate of each element; the `Rule` (a type parameter, folded away in each sink's code)
/// says what the answer does.
class PredicateProducer<Element, Rule: PredicateRule>: Producer<Element> {
  let source: Observable<Element>
  let predicate: (Element) throws -> Bool
  let stopsOn: Bool
  let inclusive: Bool

  init(
    source: Observable<Element>, predicate: @escaping (Element) throws -> Bool, stopsOn: Bool = false,
    behavior: TakeBehavior = .exclusive
  ) {
    self.source = source
    self.predicate = predicate
    self.stopsOn = stopsOn
    self.inclusive = behavior == .inclusive
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = PredicateSink<Element, Rule>(
      predicate: predicate, stopsOn: stopsOn, inclusive: inclusive, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

/// What a predicate sink does with the element at `element` (the sink not disposed).
@_spi(RxC) public protocol PredicateRule {
  static func next<Element>(_ sink: PredicateSink<Element, Self>, at element: UnsafePointer<Element>)
}

/// Open, with its body inlinable (`handle`) and its callback a hook (`test`), so that a
/// leaf in another module calls its own function in place of a closure (see docs/SPECIALIZATION.md).
@_spi(RxC) open class PredicateSink<Element, Rule: PredicateRule>: ElementSink<Element, Element> {
  /// Nil for a subclass that overrides `test(at:)`.
  @usableFromInline let predicate: ((Element) throws -> Bool)?
  /// take(while:) and take(until:): the answer that ends the stream, and whether the element
  /// that gets it is forwarded first.
  @usableFromInline let stopsOn: Bool
  @usableFromInline let inclusive: Bool
  /// skip(while:): still dropping.
  @usableFromInline final var skipping = true

  public init(
    predicate: ((Element) throws -> Bool)?, stopsOn: Bool = false, inclusive: Bool = false,
    observer: Observer<Element>, cancel: any Cancelable
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

  @inlinable @inline(__always) open override func handleNext(at element: UnsafePointer<Element>) {
    if isDisposed { return }
    Rule.next(self, at: element)
  }
}

// rx:hand-leaf: closure kept at its concrete type, lent the element by Value.withBorrowed.
// Specialized for Value (see Value). The predicate is kept at its concrete type: through the
// generic field it would be called through reabstraction thunks that pass the element
// indirectly (a store and a wider reload per element that the CPU cannot forward: several
// ns). The sink is made by the `Rule`, so that it is the final leaf.
final class ValuePredicateProducer<Rule: ValuePredicateRule>: PredicateProducer<Value, Rule> {
  let test: (Value) throws -> Bool

  override init(
    source: Observable<Value>, predicate: @escaping (Value) throws -> Bool, stopsOn: Bool = false,
    behavior: TakeBehavior = .exclusive
  ) {
    test = predicate
    super.init(source: source, predicate: predicate, stopsOn: stopsOn, behavior: behavior)
  }

  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = Rule.valueSink.init(test: test, stopsOn: stopsOn, inclusive: inclusive, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

/// A `Rule` whose `Value` sink is a final, non-generic leaf.
protocol ValuePredicateRule: PredicateRule {
  static var valueSink: ValuePredicateSink<Self>.Type { get }
}

// rx:hand-leaf: closure kept at its concrete type, lent the element by Value.withBorrowed.
// rx:value-leaf name=ValueSkipWhileSink args=SkipWhileRule on=handle next={handleNext(at: element)}
// rx:value-leaf name=ValueTakeWhileSink args=TakeWhileRule on=handle next={handleNext(at: element)}
/// The predicate at `Value`, for both rules: its leaves (final, so their calls to `test` are
/// direct) only route the events to `handle`.
class ValuePredicateSink<Rule: PredicateRule>: PredicateSink<Value, Rule> {
  let predicateOfValue: (Value) throws -> Bool

  required init(
    test: @escaping (Value) throws -> Bool, stopsOn: Bool, inclusive: Bool, observer: Observer<Value>,
    cancel: any Cancelable
  ) {
    predicateOfValue = test
    super.init(predicate: nil, stopsOn: stopsOn, inclusive: inclusive, observer: observer, cancel: cancel)
  }

  override func test(at element: UnsafePointer<Value>) throws -> Bool { try Value.withBorrowed(at: element) { try predicateOfValue($0) } }
}
