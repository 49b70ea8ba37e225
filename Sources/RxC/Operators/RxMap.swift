import CRxc
import RxCore

/// rx_map's observable: a concrete class for RxValue, so its subscribe path and its sink's
/// event path are specialized code, and the sink calls the C function directly.
final class RxMapProducer: Producer<RxValue> {
  let source: Observable<RxValue>
  let fn: CFunction<rx_map_fn>

  init(source: Observable<RxValue>, fn: CFunction<rx_map_fn>) {
    self.source = source
    self.fn = fn
  }

  override func subscribe(_ observer: Observer<RxValue>) -> any Disposable { super.subscribe(observer) }

  override func run(_ observer: Observer<RxValue>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = RxMapSink(fn, observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

final class RxMapSink: MapSink<RxValue, RxValue> {
  let fn: CFunction<rx_map_fn>

  init(_ fn: CFunction<rx_map_fn>, observer: Observer<RxValue>, cancel: any Cancelable) {
    self.fn = fn
    super.init(transform: nil, observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<RxValue>) { handle(event) { try call($0) } }

  @inline(__always) func call(_ v: RxValue) throws -> RxValue {
    var err: UnsafeMutablePointer<rx_error>? = nil
    let r = fn.fn(fn.ctx, v.c, &err)
    return try CallbackResult.value(r, err, "rx_map")
  }
}
