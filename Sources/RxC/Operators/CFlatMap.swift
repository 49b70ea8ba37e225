import CRxc
@_spi(RxC) import RxCore

/// rx_flat_map's, rx_flat_map_max's and rx_flat_map_first's observable: the core's Value flat_map (with its fused
/// paths) whose selector is the C function, called directly (no closure per element).
final class CFlatMapProducer: ValueFlatMapProducer {
  let fn: CFunction<rx_flat_map_fn>
  let name: StaticString

  init(source: Observable<RxValue>, fn: CFunction<rx_flat_map_fn>, maxConcurrent: Int, exclusive: Bool = false,
       _ name: StaticString)
  {
    self.fn = fn
    self.name = name
    super.init(source: source, maxConcurrent: maxConcurrent, exclusive: exclusive)
  }

  override func makeSink(_ observer: Observer<RxValue>, cancel: any Cancelable) -> FlatMapSink<RxValue, RxValue> {
    CFlatMapSink(fn, name, observer: observer, cancel: cancel, maxConcurrent: maxConcurrent, exclusive: exclusive)
  }
}

final class CFlatMapSink: FlatMapSink<RxValue, RxValue> {
  let fn: CFunction<rx_flat_map_fn>
  let name: StaticString

  init(
    _ fn: CFunction<rx_flat_map_fn>, _ name: StaticString, observer: Observer<RxValue>, cancel: any Cancelable,
    maxConcurrent: Int, exclusive: Bool
  ) {
    self.fn = fn
    self.name = name
    super.init(selector: nil, observer: observer, cancel: cancel, maxConcurrent: maxConcurrent, exclusive: exclusive)
  }

  // The Value leaf's overrides (see the core's ValueFlatMapSink): the generic bodies inline
  // specialized, and fusion is the core's.
  override func on(_ event: Event<RxValue>) { super.on(event) }
  override var takesNextByPointer: Bool { true }
  // The element read where it lies (the C function only reads it), with no event built.
  override func onNext(at element: UnsafePointer<RxValue>) { next(element.pointee) }
  override func dispose() { super.dispose() }
  override func makeInner() -> FlatMapInner<RxValue, RxValue> { ValueFlatMapInner(parent: self) }
  override func makeJust(_ element: RxValue) -> Observable<RxValue> { ValueJust(element) }
  override func runFused(_ inner: Observable<RxValue>) -> Bool { runFusedValue(inner) }

  /// The C function's result: an rx_just handle's value as the element (no inner observable).
  override func select(_ v: RxValue) throws -> Selected {
    var err: UnsafeMutablePointer<rx_error>? = nil
    let r = fn.fn(fn.ctx, v.c, &err)
    switch try CallbackResult.source(r, err, name) {
    case .observable(let o): return .observable(o)
    case .scalar(let value): return .element(value)
    }
  }
}
