extension Observable {
  /// Emits each intermediate accumulation, starting from `seed`.
  public func scan<Accumulate>(
    _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate
  ) -> Observable<Accumulate> {
    ScanProducer(source: self, seed: seed, accumulator: accumulator)
  }
}

extension Observable where Element == Value {
  public func scan(_ seed: Value, accumulator: @escaping (Value, Value) throws -> Value) -> Observable<Value> {
    ValueScanProducer(source: self, seed: seed, accumulator: accumulator)
  }
}

class ScanProducer<Source, Accumulate>: Producer<Accumulate> {
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
    let sink = ScanSink(seed: seed, accumulator: accumulator, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

/// Open, with its body inlinable (`handle`), so that a leaf in another module can override
/// the `accumulate` hook (see AccumulatingSink).
@_spi(RxC) open class ScanSink<Source, Accumulate>: AccumulatingSink<Source, Accumulate> {
  open override func on(_ event: Event<Source>) { handle(event) }

  @inlinable @inline(__always) public final func handle(_ event: Event<Source>) {
    switch event {
    case .next(let element): handleNext(element)
    case _ where isDisposed: return
    case .error(let error): forwardTerminal(.error(error))
    case .completed: forwardTerminal(.completed)
    }
  }

  /// A `.next` event's body: what `onNext(at:)` of a leaf runs (no `Event` built).
  @inlinable @inline(__always) public final func handleNext(_ element: Source) {
    _withUnprotectedUnsafePointer(to: element) { handleNext(at: $0) }
  }

  /// `handleNext` of the element at `element`: what `onNext(at:)` of a leaf runs.
  @inlinable @inline(__always) public final func handleNext(at element: UnsafePointer<Source>) {
    if isDisposed { return }
    if advance(by: element) { forwardNext(state) }
  }
}

// rx:hand-leaf: closure kept at its concrete type, lent the element by Value.withBorrowed.
// Specialized for Value (see Value): the overrides inline the generic bodies.
// The accumulator is kept at its concrete type (see `ValueTakeWhileProducer`).
final class ValueScanProducer: ScanProducer<Value, Value> {
  let combine: (Value, Value) throws -> Value

  override init(source: Observable<Value>, seed: Value, accumulator: @escaping (Value, Value) throws -> Value) {
    combine = accumulator
    super.init(source: source, seed: seed, accumulator: accumulator)
  }

  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueScanSink(seed: seed, combine: combine, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

// rx:hand-leaf: closure kept at its concrete type, lent the element by Value.withBorrowed.
final class ValueScanSink: ScanSink<Value, Value> {
  let combine: (Value, Value) throws -> Value

  init(seed: Value, combine: @escaping (Value, Value) throws -> Value, observer: Observer<Value>, cancel: any Cancelable) {
    self.combine = combine
    super.init(seed: seed, accumulator: nil, observer: observer, cancel: cancel)
  }

  override func accumulate(into state: UnsafeMutablePointer<Value>, _ element: UnsafePointer<Value>) throws {
    // Both borrowed where they are: `state` is under this sink's exclusive access for the call.
    state.pointee = try Value.withBorrowed(at: state, element) { try combine($0, $1) }
  }
  override func on(_ event: Event<Value>) { handle(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { handleNext(at: element) }
}
