import CRxc
import RxCore

/// rx_filter's observable: concrete for RxValue (see RxMapProducer).
final class RxFilterProducer: Producer<RxValue> {
  let source: Observable<RxValue>
  let fn: CFunction<rx_predicate_fn>

  init(source: Observable<RxValue>, fn: CFunction<rx_predicate_fn>) {
    self.source = source
    self.fn = fn
  }

  override func subscribe(_ observer: Observer<RxValue>) -> any Disposable { super.subscribe(observer) }

  override func run(_ observer: Observer<RxValue>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = RxFilterSink(fn, observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

final class RxFilterSink: FilterSink<RxValue> {
  let fn: CFunction<rx_predicate_fn>

  init(_ fn: CFunction<rx_predicate_fn>, observer: Observer<RxValue>, cancel: any Cancelable) {
    self.fn = fn
    super.init(predicate: nil, observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<RxValue>) { handle(event) { try call($0) } }

  @inline(__always) func call(_ v: RxValue) throws -> Bool {
    var err: UnsafeMutablePointer<rx_error>? = nil
    let r = fn.fn(fn.ctx, v.c, &err)
    try CallbackResult.check(err, "rx_filter")
    return r
  }
}
