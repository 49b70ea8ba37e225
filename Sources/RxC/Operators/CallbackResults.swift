import CRxc
@_spi(RxC) import RxCore

extension CallbackResult {
  /// An owned observable returned by a callback that may have set `error`.
  static func observable(
    _ result: UnsafeMutablePointer<rx_observable>?, _ error: UnsafeMutablePointer<rx_error>?, _ fn: StaticString
  ) throws -> Observable<RxValue> {
    switch try source(result, error, fn) {
    case .observable(let o): return o
    case .scalar(let v): return ValueJust(v)
    }
  }

  /// `observable`, keeping an rx_just result as its value.
  static func source(
    _ result: UnsafeMutablePointer<rx_observable>?, _ error: UnsafeMutablePointer<rx_error>?, _ fn: StaticString
  ) throws -> RxSource {
    if let error {
      if let result { _ = ObservableHandle.takeSource(result, fn) }
      throw takeError(error, fn)
    }
    guard let result else {
      throw ErrorObject.make(code: Int32(RX_ERROR_UNKNOWN), "\(fn): the callback returned no observable")
    }
    guard let source = ObservableHandle.takeSource(result, fn) else {
      throw ErrorObject.make(code: Int32(RX_ERROR_TYPE), "\(fn): the callback returned something that is not an rx_observable")
    }
    return source
  }
}

/// A C callback and its ctx, for the operators that call it directly (no closure; see
/// CCallbackOperators). Everything that can still call `fn` holds a copy, and so `owner`:
/// ctx_free runs once, after the last use. No ctx_free, no owner (saves an allocation).
struct CFunction<Fn> {
  let fn: Fn
  let ctx: UnsafeMutableRawPointer?
  let owner: CContext?

  init(_ fn: Fn, _ ctx: UnsafeMutableRawPointer?, _ free: rx_free_fn?) {
    self.fn = fn
    self.ctx = ctx
    self.owner = free.map { CContext(ctx, $0) }
  }
}

/// Adapters from C callback types to the core's closures. Each closure holds the CContext,
/// so ctx_free runs once the observable and every subscription using it are gone.
enum CAdapt {
  static func map(_ fn: rx_map_fn, _ context: CContext, _ name: StaticString) -> (RxValue) throws -> RxValue {
    { v in
      var err: UnsafeMutablePointer<rx_error>? = nil
      let r = fn(context.ctx, v.c, &err)
      return try CallbackResult.value(r, err, name)
    }
  }

  static func predicate(_ fn: rx_predicate_fn, _ context: CContext, _ name: StaticString) -> (RxValue) throws -> Bool {
    { v in
      var err: UnsafeMutablePointer<rx_error>? = nil
      let r = fn(context.ctx, v.c, &err)
      try CallbackResult.check(err, name)
      return r
    }
  }

  /// An rx_just result is handed over as its value (`.element`: no inner observable).
  /// `flatMap` for a sink that hands over the element by pointer (its C view read in place).
  static func flatMapAt(_ fn: rx_flat_map_fn, _ context: CContext, _ name: StaticString)
    -> (UnsafePointer<RxValue>) throws -> FlatMapSelection
  {
    { p in
      var err: UnsafeMutablePointer<rx_error>? = nil
      let r = fn(context.ctx, RxValue.c(at: p), &err)
      return try CallbackResult.source(r, err, name).selection
    }
  }

  static func flatMap(_ fn: rx_flat_map_fn, _ context: CContext, _ name: StaticString)
    -> (RxValue) throws -> FlatMapSelection
  {
    { v in
      var err: UnsafeMutablePointer<rx_error>? = nil
      let r = fn(context.ctx, v.c, &err)
      return try CallbackResult.source(r, err, name).selection
    }
  }

  /// The C combine function as a selector object (rx_combine_latest, rx_zip,
  /// rx_with_latest_from): the sink calls it as a method, with no closure context to retain
  /// and release per combination, and it reads the combination in place (the sink's slots,
  /// valid for the call): the C function gets views of them on the stack, with no copy and
  /// no allocation.
  final class Combining: CombiningFunction<RxValue, RxValue> {
    let fn: rx_combine_fn
    let context: CContext
    let name: StaticString
    init(_ fn: rx_combine_fn, _ context: CContext, _ name: StaticString) {
      (self.fn, self.context, self.name) = (fn, context, name)
    }
    override func combine(_ values: UnsafeBufferPointer<RxValue>) throws -> RxValue {
      var err: UnsafeMutablePointer<rx_error>? = nil
      let r: rx_value
      if let base = values.baseAddress, values.count > 0 {
        r = withUnsafeTemporaryAllocation(of: rx_value.self, capacity: values.count) { views in
          for k in 0..<values.count { views.initializeElement(at: k, to: RxValue.c(at: base + k)) }
          return fn(context.ctx, views.baseAddress, values.count, &err)
        }
      } else {
        r = fn(context.ctx, nil, 0, &err)
      }
      return try CallbackResult.value(r, err, name)
    }
  }

  /// `fn` as a selector object, or RX_ARRAY results for a NULL fn; either way it holds
  /// `context`, so a ctx_free given with a NULL fn still runs once, at the end.
  static func combining(_ fn: rx_combine_fn?, _ context: CContext, _ name: StaticString)
    -> CombiningSelector<RxValue, RxValue>
  {
    guard let fn else {
      return .buffer { values in withExtendedLifetime(context) { .boxed(ArrayBox(ContiguousArray(values))) } }
    }
    return .function(Combining(fn, context, name))
  }

  /// NULL combine function: the values as one RX_ARRAY.
  static func array(_ values: [RxValue]) -> RxValue { .boxed(ArrayBox(ContiguousArray(values))) }

  static func typeError(_ message: String) -> ErrorObject {
    ErrorObject.make(code: Int32(RX_ERROR_TYPE), message)
  }
}

/// The core observables behind a C array of sources; nil (message set) if any is invalid.
func observableArray(
  _ srcs: UnsafePointer<UnsafeMutablePointer<rx_observable>?>?, _ n: UInt, _ fn: StaticString
) -> [Observable<RxValue>]? {
  if n > 0 && srcs == nil {
    setLastError("\(fn): srcs is NULL but n is \(n)")
    return nil
  }
  var result: [Observable<RxValue>] = []
  result.reserveCapacity(Int(n))
  for i in 0..<Int(n) {
    guard let h = ObservableHandle.from(srcs![i], fn, "an element of srcs") else { return nil }
    result.append(h.observable)
  }
  return result
}
