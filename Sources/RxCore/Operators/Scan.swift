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
    return (sink, source.subscribe(sink))
  }
}

/// Open, with its body inlinable (`handle`) and its callback a hook (`accumulate`), so that a
/// leaf in another module calls its own function in place of a closure (see docs/SPECIALIZATION.md).
open class ScanSink<Source, Accumulate>: Sink<Source, Accumulate> {
  /// Nil for a subclass that overrides `accumulate(_:_:)`.
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

  @inlinable open func accumulate(_ state: Accumulate, _ element: Source) throws -> Accumulate {
    try accumulator.unsafelyUnwrapped(state, element)
  }

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
    if isDisposed { return }
    do { state = try accumulate(state, element) } catch {
      forwardTerminal(.error(error))
      return
    }
    forwardNext(state)
  }
}

// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueScanProducer: ScanProducer<Value, Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueScanSink(seed: seed, accumulator: accumulator, observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

final class ValueScanSink: ScanSink<Value, Value> {
  override func on(_ event: Event<Value>) { handle(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { handleNext(element.pointee) }
}
