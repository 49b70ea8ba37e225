/// concat_map and flat_map_latest (switch): a producer of the source and the selector that
/// maps each element to an inner observable (a `UnaryProducer` whose parameter is the
/// selector, nil for a leaf whose sink overrides `select`), and this sink, whose subclasses
/// differ in what they do with the inners (queue them or switch).
struct InnerSelector<Source, Result> {
  // In a struct, the closure keeps its own abstraction, not that of the producer's opaque
  // parameter: converting it there kept the Value overloads out of a client's
  // cross-module optimization (Swift concat_map +11 instructions per element).
  let select: ((Source) throws -> Observable<Result>)?
  /// A Value leaf's selector instead, which may hand back a bare element (`.element`) and
  /// reads the outer element in place. Its type is concrete: in a generic field it would be
  /// called through a reabstraction thunk per element.
  var selecting: ValueSelecting? = nil
}

/// The selector of a Value concat_map or switch (see `InnerSelector.selecting`).
@_spi(RxC) public typealias ValueSelecting = (UnsafePointer<Value>) throws -> FlatMapSelection

extension InnerSelector where Source == Value, Result == Value {
  /// A Swift selector of Value elements, as a Value leaf's `selecting` (the outer element
  /// borrowed where it is). The generated Value overloads construct `InnerSelector(select:)`
  /// with a non-optional closure: this initializer matches it more closely than the
  /// memberwise one (no optional wrapping, no default argument), so they get it.
  init(select: @escaping (Value) throws -> Observable<Value>) {
    self.init(select: nil) { .observable(try Value.withBorrowed(at: $0) { try select($0) }) }
  }
}

/// The selector forms the C layer calls: each outer element read where it is, and a bare
/// element instead of an observable (`.element(v)`: what a `just(v)` would emit, with no
/// inner observable). `@_disfavoredOverload`: a trailing closure that only throws still
/// picks the public form.
extension Observable where Element == Value {
  @_disfavoredOverload @_spi(RxC) public func concatMap(selectingAt: @escaping ValueSelecting) -> Observable<Value> {
    ValueConcatMapProducer(source: self, InnerSelector(select: nil, selecting: selectingAt))
  }
  @_disfavoredOverload @_spi(RxC) public func flatMapLatest(selectingAt: @escaping ValueSelecting) -> Observable<Value> {
    ValueSwitchProducer(source: self, InnerSelector(select: nil, selecting: selectingAt))
  }
}

/// The `selecting` of a sink that has none: a generic sink calls its `selector` instead.
private func noValueSelecting(_: UnsafePointer<Value>) throws -> FlatMapSelection {
  preconditionFailure("a generic concat_map or switch sink has no Value selector")
}

// rx:value-leaf name=ValueConcatMapProducer args=Value,Value,ConcatMapSink<Value,Value> copy=makeSink super=run map=ConcatMapSink:ValueConcatMapSink
// rx:value-leaf name=ValueConcatProducer args=Observable<Value>,Value,ConcatMapSink<Observable<Value>,Value> copy=makeSink super=run map=ConcatMapSink:ValueConcatSink
// rx:value-leaf name=ValueSwitchProducer args=Value,Value,SwitchSink<Value,Value> copy=makeSink super=run map=SwitchSink:ValueSwitchSink
// rx:value-leaf name=ValueSwitchLatestProducer args=Observable<Value>,Value,SwitchSink<Observable<Value>,Value> copy=makeSink super=run map=SwitchSink:ValueSwitchLatestSink
/// The producer of concat_map and switch: the source, the selector, and the sink `S` that
/// does the operator's part.
class SelectingProducer<Source, Result, S: Sink<Source, Result> & SelectorMadeSink>:
  UnaryProducer<Source, Result, InnerSelector<Source, Result>> where S.Outer == Source, S.Inner == Result
{
  override func makeSink(_ observer: Observer<Result>, cancel: any Cancelable) -> Sink<Source, Result> {
    S(parameter, observer: observer, cancel: cancel)
  }
}

/// A sink made from a selector (every `SelectingSink`), which `SelectingProducer` builds.
protocol SelectorMadeSink: AnyObject {
  associatedtype Outer
  associatedtype Inner
  init(_ selector: InnerSelector<Outer, Inner>, observer: Observer<Inner>, cancel: any Cancelable)
}

/// What a selecting sink's drain takes besides its inner events (each operator's enum).
protocol SelectingSignal {
  static func fail(_ error: any Error) -> Self
  static var outerCompleted: Self { get }
}

/// The sinks' common part: the selector and the outer elements it reads, the drain their
/// `Signal`s go through, and the subscriptions of the source and of the current inner.
class SelectingSink<Source, Result, Signal: SelectingSignal>: Sink<Source, Result>, SelectorMadeSink {
  typealias Selected = FlatMapSink<Source, Result>.Selected

  let selector: ((Source) throws -> Observable<Result>)?
  let selecting: ValueSelecting  // not optional: unwrapping it per element cost 3 instructions
  let drain = Drain<Signal>()
  let sourceSubscription = SingleAssignmentDisposable()
  let innerSubscription = SerialDisposable()

  required init(_ selector: InnerSelector<Source, Result>, observer: Observer<Result>, cancel: any Cancelable) {
    self.selector = selector.select
    // Not `??`, a generic function: the closure would come back wrapped in a reabstraction thunk.
    if let selecting = selector.selecting { self.selecting = selecting } else { self.selecting = noValueSelecting }
    super.init(observer: observer, cancel: cancel)
  }

  /// The inner for the outer element at `element` (a hook: a Value leaf may hand back a bare
  /// element, and reads the element in place).
  func select(at element: UnsafePointer<Source>) throws -> Selected {
    .observable(try selector.unsafelyUnwrapped(element.pointee))
  }

  /// What the operator does with the inner `select` gave (queue it, or switch to it).
  func selected(_ selected: consuming Selected) { preconditionFailure("SelectingSink.selected is abstract") }

  /// `signal` into the operator's drain.
  func submitSignal(_ signal: Signal) { preconditionFailure("SelectingSink.submitSignal is abstract") }

  override func on(_ event: Event<Source>) {
    switch event {
    case .next(let element): _withUnprotectedUnsafePointer(to: element) { next(at: $0) }
    case .error(let error): submitSignal(.fail(error))
    case .completed: submitSignal(.outerCompleted)
    }
  }

  /// An outer element, read where it is (the selector is all that reads it).
  @inline(__always) final func next(at element: UnsafePointer<Source>) {
    if wantsNoMoreEvents { return }
    let inner: Selected
    do { inner = try select(at: element) } catch { return submitSignal(.fail(error)) }
    selected(consume inner)
  }

  final override func subscribe(to source: Observable<Source>) -> any Disposable {
    sourceSubscription.trySet(source.subscribe(self))
    return BinaryDisposable(sourceSubscription, innerSubscription)
  }
}
