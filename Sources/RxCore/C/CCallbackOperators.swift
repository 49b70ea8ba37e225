import CRxc

// The operators whose per-element callback is a C function: leaves of the core's sinks that
// override the sink's callback hook with a direct call of the function (no closure, thunk or
// context retain per element), and take `.next` by pointer (no `Event`). The Rx behaviour is
// the core's (`handle`, `handleNext`); here is marshalling.

/// The observable of such an operator: builds its sink per subscription.
final class CCallbackProducer: Producer<Value> {
  let source: Observable<Value>
  let makeSink: (Observer<Value>, any Cancelable) -> Sink<Value, Value>

  init(_ source: Observable<Value>, _ makeSink: @escaping (Observer<Value>, any Cancelable) -> Sink<Value, Value>) {
    self.source = source
    self.makeSink = makeSink
  }

  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = makeSink(observer, cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

// The out-parameters are passed unprotected: a stack protector per call costs more than the
// C function's own work on plain values, and the C side only writes one pointer or value.
extension CFunction where Fn == rx_accumulate_fn {
  @inline(__always) func callAsFunction(
    _ acc: UnsafeMutablePointer<Value>, _ v: UnsafePointer<Value>, _ name: StaticString
  ) throws -> Value {
    var err: UnsafeMutablePointer<rx_error>? = nil
    let r = _withUnprotectedUnsafeMutablePointer(to: &err) { fn(ctx, Value.c(at: acc), Value.c(at: v), $0) }
    return try CallbackResult.value(r, err, name)
  }
}

extension CFunction where Fn == rx_map_fn {
  @inline(__always) func callAsFunction(_ v: UnsafePointer<Value>, _ name: StaticString) throws -> Value {
    var err: UnsafeMutablePointer<rx_error>? = nil
    let r = _withUnprotectedUnsafeMutablePointer(to: &err) { fn(ctx, Value.c(at: v), $0) }
    return try CallbackResult.value(r, err, name)
  }
}

extension CFunction where Fn == rx_predicate_fn {
  @inline(__always) func callAsFunction(_ v: UnsafePointer<Value>, _ name: StaticString) throws -> Bool {
    var err: UnsafeMutablePointer<rx_error>? = nil
    let r = _withUnprotectedUnsafeMutablePointer(to: &err) { fn(ctx, Value.c(at: v), $0) }
    try CallbackResult.check(err, name)
    return r
  }
}

extension CFunction where Fn == rx_compact_map_fn {
  /// nil when the callback drops the value (a value it stored in *out anyway is released).
  @inline(__always) func callAsFunction(_ v: UnsafePointer<Value>, _ name: StaticString) throws -> Value? {
    var out = rx_value(kind: RX_NONE, i: 0)
    var err: UnsafeMutablePointer<rx_error>? = nil
    let keep = _withUnprotectedUnsafeMutablePointer(to: &out) { o in
      _withUnprotectedUnsafeMutablePointer(to: &err) { fn(ctx, Value.c(at: v), o, $0) }
    }
    if keep || err != nil { return try CallbackResult.value(out, err, name) }
    if out.kind.rawValue >= RX_STRING.rawValue { _ = Value.takeOwned(out, name) }
    return nil
  }
}

// rx:value-leaf name=CScanSink args=EachStep on=handle next={handleNext(at: element)}
// rx:value-leaf name=CReduceSink args=AtCompletion on=handle next={handleNext(at: element)}
/// rx_scan and rx_reduce: the core's accumulation with the C function as its step. Generic
/// over the emission; its final leaves (generated) only route the events to `handle`, and
/// their calls of `accumulate` are direct.
class CAccumulatingSink<Emission: AccumulationEmission>: AccumulatingSink<Value, Value, Emission> {
  let fn: CFunction<rx_accumulate_fn>

  init(seed: Value, fn: CFunction<rx_accumulate_fn>, observer: Observer<Value>, cancel: any Cancelable) {
    self.fn = fn
    super.init(seed: seed, accumulator: nil, observer: observer, cancel: cancel)
  }

  @inline(__always) override func accumulate(into state: UnsafeMutablePointer<Value>, _ element: UnsafePointer<Value>)
    throws
  { Slot.assign(state, taking: try fn(state, element, Emission.eachStep ? "rx_scan" : "rx_reduce")) }
}

// rx:value-leaf name=CTakeWhileSink args=TakeWhileRule on=handle next={handleNext(at: element)}
// rx:value-leaf name=CSkipWhileSink args=SkipWhileRule on=handle next={handleNext(at: element)}
/// rx_take_while, rx_take_while_inclusive, rx_take_until_predicate and rx_skip_while: the
/// core's predicate sink with the C function as its test, generic over the rule as above.
class CPredicateSink<Rule: PredicateRule>: PredicateSink<Value, Rule> {
  let fn: CFunction<rx_predicate_fn>
  let name: StaticString

  init(
    _ fn: CFunction<rx_predicate_fn>, _ name: StaticString, stopsOn: Bool = false, inclusive: Bool = false,
    observer: Observer<Value>, cancel: any Cancelable
  ) {
    self.fn = fn
    self.name = name
    super.init(predicate: nil, stopsOn: stopsOn, inclusive: inclusive, observer: observer, cancel: cancel)
  }

  @inline(__always) override func test(at element: UnsafePointer<Value>) throws -> Bool { try fn(element, name) }
}

/// rx_compact_map.
final class CCompactMapSink: CompactMapSink<Value, Value> {
  let fn: CFunction<rx_compact_map_fn>

  init(_ fn: CFunction<rx_compact_map_fn>, observer: Observer<Value>, cancel: any Cancelable) {
    self.fn = fn
    super.init(transform: nil, observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Value>) { handle(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { handleNext(at: element) }
  @inline(__always) override func select(at element: UnsafePointer<Value>, into result: inout Value?) throws {
    result = try fn(element, "rx_compact_map")
  }
}

/// rx_distinct_until_changed: the C function, or rx_value_equal for a NULL one.
final class CDistinctSink: DistinctUntilChangedSink<Value> {
  let fn: CFunction<rx_equal_fn?>

  init(_ fn: CFunction<rx_equal_fn?>, observer: Observer<Value>, cancel: any Cancelable) {
    self.fn = fn
    super.init(comparer: nil, observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Value>) { handle(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { handleNext(at: element) }
  @inline(__always) override func same(at a: UnsafePointer<Value>, _ b: UnsafePointer<Value>) throws -> Bool {
    guard let eq = fn.fn else { return valuesEqual(at: a, b) }
    return eq(fn.ctx, Value.c(at: a), Value.c(at: b))
  }
}

/// on_next and after_next called with the element in place (see `ValueNextHooks`).
@_spi(RxC) public final class CNextHooks: ValueNextHooks {
  typealias Hook = @convention(c) (UnsafeMutableRawPointer?, rx_value) -> Void
  let onNextFn: Hook?
  let afterNextFn: Hook?
  let ctx: UnsafeMutableRawPointer?
  /// Keeps ctx until the producer and every sink are gone, as the other hooks do.
  let context: CContext

  public init(_ c: rx_do_hooks, _ context: CContext) {
    onNextFn = c.on_next
    afterNextFn = c.after_next
    ctx = c.ctx
    self.context = context
  }

  public override func onNext(at element: UnsafePointer<Value>) {
    if let f = onNextFn { f(ctx, Value.c(at: element)) }
  }

  public override func afterNext(at element: UnsafePointer<Value>) {
    if let f = afterNextFn { f(ctx, Value.c(at: element)) }
  }
}

/// rx_generate's rule: the C condition and step, called on the state where the sink keeps it.
struct CGeneration: GenerationRule {
  let condition: CFunction<rx_predicate_fn>
  let iterate: CFunction<rx_map_fn>

  @inline(__always) func holds(_ state: UnsafePointer<Value>) throws -> Bool { try condition(state, "rx_generate") }

  @inline(__always) func advance(_ state: UnsafeMutablePointer<Value>) throws {
    Slot.assign(state, taking: try iterate(state, "rx_generate"))
  }
}

/// The operators above as the C layer makes them: each a producer of its sink over `source`.
@_spi(RxC) public enum COperators {
  public static func scan(_ source: Observable<Value>, seed: Value, _ f: CFunction<rx_accumulate_fn>) -> Observable<Value> {
    CCallbackProducer(source) { CScanSink(seed: seed, fn: f, observer: $0, cancel: $1) }
  }

  public static func reduce(_ source: Observable<Value>, seed: Value, _ f: CFunction<rx_accumulate_fn>) -> Observable<Value> {
    CCallbackProducer(source) { CReduceSink(seed: seed, fn: f, observer: $0, cancel: $1) }
  }

  public static func skipWhile(_ source: Observable<Value>, _ f: CFunction<rx_predicate_fn>, _ name: StaticString)
    -> Observable<Value>
  {
    CCallbackProducer(source) { CSkipWhileSink(f, name, observer: $0, cancel: $1) }
  }

  /// take while / until a C predicate (rx_take_while and its kin).
  public static func takeWhile(
    _ source: Observable<Value>, _ f: CFunction<rx_predicate_fn>, _ name: StaticString, stopsOn: Bool, inclusive: Bool
  ) -> Observable<Value> {
    CCallbackProducer(source) { CTakeWhileSink(f, name, stopsOn: stopsOn, inclusive: inclusive, observer: $0, cancel: $1) }
  }

  public static func distinct(_ source: Observable<Value>, _ f: CFunction<rx_equal_fn?>) -> Observable<Value> {
    CCallbackProducer(source) { CDistinctSink(f, observer: $0, cancel: $1) }
  }

  public static func compactMap(_ source: Observable<Value>, _ f: CFunction<rx_compact_map_fn>) -> Observable<Value> {
    CCallbackProducer(source) { CCompactMapSink(f, observer: $0, cancel: $1) }
  }

  public static func generate(
    _ initial: Value, _ scheduler: Scheduler, _ condition: CFunction<rx_predicate_fn>, _ iterate: CFunction<rx_map_fn>
  ) -> Observable<Value> {
    CGenerateObservable(Generation(initialState: initial, rule: CGeneration(condition: condition, iterate: iterate), scheduler: scheduler))
  }

  public static func enumerated(_ source: Observable<Value>) -> Observable<Value> {
    CCallbackProducer(source) { CEnumeratedSink(observer: $0, cancel: $1) }
  }

  /// Each element paired with `scheduler`'s time: rx_enumerated's sink with a clock.
  public static func timestamp(_ source: Observable<Value>, _ scheduler: Scheduler) -> Observable<Value> {
    CCallbackProducer(source) { CEnumeratedSink(clock: scheduler, observer: $0, cancel: $1) }
  }

  public static func materialize(_ source: Observable<Value>) -> Observable<Value> {
    CCallbackProducer(source) { CMaterializeSink(pack: nil, observer: $0, cancel: $1) }
  }

  public static func dematerialize(_ source: Observable<Value>) -> Observable<Value> {
    CCallbackProducer(source) { CDematerializeSink(observer: $0, cancel: $1) }
  }
}
