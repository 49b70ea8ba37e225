import CRxc
import RxCore

/// rx_flat_map's observable: concrete classes for RxValue (see RxMapProducer), so neither the
/// outer nor the inner event path runs generic code.
final class RxFlatMapProducer: Producer<RxValue> {
  let source: Observable<RxValue>
  let fn: CFunction<rx_flat_map_fn>
  let maxConcurrent: Int
  /// rx_flat_map_first: outer elements are ignored while an inner subscription is active.
  let exclusive: Bool
  /// The function's name, for its errors.
  let name: StaticString

  init(source: Observable<RxValue>, fn: CFunction<rx_flat_map_fn>, maxConcurrent: Int = 0, exclusive: Bool = false,
       name: StaticString = "rx_flat_map")
  {
    self.source = source
    self.fn = fn
    self.maxConcurrent = maxConcurrent
    self.exclusive = exclusive
    self.name = name
  }

  override func subscribe(_ observer: Observer<RxValue>) -> any Disposable { super.subscribe(observer) }

  override func run(_ observer: Observer<RxValue>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = RxFlatMapSink(fn, name, observer: observer, cancel: cancel, maxConcurrent: maxConcurrent,
                             exclusive: exclusive)
    if type(of: source) == RxRange.self {  // fused: the sink runs the range's loop
      let range = unsafeDowncast(source, to: RxRange.self)
      return (sink, sink.run(count: range.count) { .int(range.start &+ Int64($0)) })
    }
    return (sink, sink.run(source))
  }
}

final class RxFlatMapSink: FlatMapSink<RxValue, RxValue> {
  let fn: CFunction<rx_flat_map_fn>
  let name: StaticString

  init(_ fn: CFunction<rx_flat_map_fn>, _ name: StaticString, observer: Observer<RxValue>, cancel: any Cancelable,
       maxConcurrent: Int, exclusive: Bool)
  {
    self.fn = fn
    self.name = name
    super.init(selector: nil, observer: observer, cancel: cancel, maxConcurrent: maxConcurrent, exclusive: exclusive)
  }

  override func on(_ event: Event<RxValue>) { super.on(event) }
  override func dispose() { super.dispose() }

  override func select(_ v: RxValue) throws -> Selected {
    var err: UnsafeMutablePointer<rx_error>? = nil
    let r = fn.fn(fn.ctx, v.c, &err)
    switch try CallbackResult.source(r, err, name) {
    case .observable(let o): return .observable(o)
    case .scalar(let value): return limitsConcurrency ? .observable(RxJust(value)) : .element(value)
    }
  }

  override func makeInner() -> FlatMapInner<RxValue, RxValue> { RxFlatMapInner(parent: self) }
}

final class RxFlatMapInner: FlatMapInner<RxValue, RxValue> {
  override func on(_ event: Event<RxValue>) { super.on(event) }
  override var wantsNoMoreEvents: Bool { super.wantsNoMoreEvents }
}
