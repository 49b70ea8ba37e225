/// scan and reduce: one producer and one sink, told apart by when the state is emitted
/// (`Emission`, a type parameter: each sink is compiled with it folded away).
class AccumulatingProducer<Source, Accumulate, Emission: AccumulationEmission>: Producer<Accumulate> {
  let source: Observable<Source>
  let seed: Accumulate
  let accumulator: (Accumulate, Source) throws -> Accumulate

  init(source: Observable<Source>, seed: Accumulate, accumulator: @escaping (Accumulate, Source) throws -> Accumulate) {
    self.source = source
    self.seed = seed
    self.accumulator = accumulator
  }

  override func run(_ observer: Observer<Accumulate>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = AccumulatingSink<Source, Accumulate, Emission>(
      seed: seed, accumulator: accumulator, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

/// When an accumulating sink emits its state: after each element (scan), or once, when the
/// source completes (reduce).
@_spi(RxC) public protocol AccumulationEmission {
  static var eachStep: Bool { get }
}

@_spi(RxC) public enum EachStep: AccumulationEmission {
  @inlinable public static var eachStep: Bool { true }
}

@_spi(RxC) public enum AtCompletion: AccumulationEmission {
  @inlinable public static var eachStep: Bool { false }
}

/// What scan and reduce keep per subscription: the accumulation, and the callback that
/// advances it as a hook (`accumulate`), so that a leaf in another module calls its own
/// function in place of a closure (see docs/SPECIALIZATION.md). Open, with its body
/// inlinable (`handle`), so that such a leaf runs it specialized.
@_spi(RxC) open class AccumulatingSink<Source, Accumulate, Emission: AccumulationEmission>: ElementSink<Source, Accumulate> {
  /// Nil for a subclass that overrides `accumulate(into:_:)`.
  @usableFromInline let accumulator: ((Accumulate, Source) throws -> Accumulate)?
  @usableFromInline final var state: Accumulate

  public init(
    seed: Accumulate, accumulator: ((Accumulate, Source) throws -> Accumulate)?, observer: Observer<Accumulate>,
    cancel: any Cancelable
  ) {
    self.accumulator = accumulator
    self.state = seed
    super.init(observer: observer, cancel: cancel)
  }

  /// Advances the state at `state` by the element at `element` (left as it was if this
  /// throws). Both are borrowed in place, so a leaf that hands them to a C function copies
  /// neither; and with no generic result, the leaf's override is called with no thunk.
  @inlinable open func accumulate(into state: UnsafeMutablePointer<Accumulate>, _ element: UnsafePointer<Source>)
    throws
  {
    Slot.assign(state, taking: try accumulator!(state.pointee, element.pointee))
  }

  /// Advances the state by the element at `element`; false (the error forwarded) if the
  /// callback threw.
  @inlinable @inline(__always) public final func advance(by element: UnsafePointer<Source>) -> Bool {
    do { try withUnsafeMutablePointer(to: &state) { try accumulate(into: $0, element) } } catch {
      forwardTerminal(.error(error))
      return false
    }
    return true
  }

  /// reduce emits its state before it completes.
  @inlinable open override func terminate(_ event: Event<Source>) {
    if case .error(let error) = event { return forwardTerminal(.error(error)) }
    if !Emission.eachStep { forwardNext(state) }
    forwardTerminal(.completed)
  }

  @inlinable @inline(__always) open override func handleNext(at element: UnsafePointer<Source>) {
    if isDisposed { return }
    if advance(by: element) && Emission.eachStep { forwardNext(state) }
  }
}

// rx:hand-leaf: closure kept at its concrete type, lent the element by Value.withBorrowed.
// Specialized for Value (see Value). The accumulator is kept at its concrete type (see
// `ValueTakeWhileProducer`); the sink is made by `Emission`, so that it is the final leaf.
final class ValueAccumulatingProducer<Emission: ValueAccumulationEmission>: AccumulatingProducer<Value, Value, Emission> {
  let combine: (Value, Value) throws -> Value

  override init(source: Observable<Value>, seed: Value, accumulator: @escaping (Value, Value) throws -> Value) {
    combine = accumulator
    super.init(source: source, seed: seed, accumulator: accumulator)
  }

  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = Emission.valueSink.init(seed: seed, combine: combine, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

/// An `Emission` whose `Value` sink is a final, non-generic leaf.
protocol ValueAccumulationEmission: AccumulationEmission {
  static var valueSink: ValueAccumulatingSink<Self>.Type { get }
}

extension EachStep: ValueAccumulationEmission {
  static var valueSink: ValueAccumulatingSink<Self>.Type { ValueScanSink.self }
}

extension AtCompletion: ValueAccumulationEmission {
  static var valueSink: ValueAccumulatingSink<Self>.Type { ValueReduceSink.self }
}

// rx:hand-leaf: closure kept at its concrete type, lent the element by Value.withBorrowed.
// rx:value-leaf name=ValueScanSink args=EachStep on=handle next={handleNext(at: element)}
// rx:value-leaf name=ValueReduceSink args=AtCompletion on=handle next={handleNext(at: element)}
/// The accumulation at `Value`, for both emissions: its leaves (final, so their calls to
/// `accumulate` are direct) only route the events to `handle`.
class ValueAccumulatingSink<Emission: AccumulationEmission>: AccumulatingSink<Value, Value, Emission> {
  let combine: (Value, Value) throws -> Value

  required init(
    seed: Value, combine: @escaping (Value, Value) throws -> Value, observer: Observer<Value>, cancel: any Cancelable
  ) {
    self.combine = combine
    super.init(seed: seed, accumulator: nil, observer: observer, cancel: cancel)
  }

  override func accumulate(into state: UnsafeMutablePointer<Value>, _ element: UnsafePointer<Value>) throws {
    // Both borrowed where they are: `state` is under this sink's exclusive access for the call.
    Slot.assign(state, taking: try Value.withBorrowed(at: state, element) { try combine($0, $1) })
  }
}
