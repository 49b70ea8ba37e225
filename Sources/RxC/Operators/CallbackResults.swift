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
  /// and release per combination. Each subscription keeps the C argument array in its
  /// argument buffer: views of the sink's slots (valid while those hold their elements), so a
  /// combination converts only the element that changed and copies nothing else, with no
  /// allocation. Final, with a pointer-only `apply`: the sink's one virtual call lands here
  /// directly (no reabstraction thunk).
  final class Combining: CombiningFunction<RxValue, RxValue> {
    let fn: rx_combine_fn
    let context: CContext
    /// `context.ctx`, one load nearer.
    let ctx: UnsafeMutableRawPointer?
    let name: StaticString
    init(_ fn: rx_combine_fn, _ context: CContext, _ name: StaticString) {
      (self.fn, self.context, self.ctx, self.name) = (fn, context, context.ctx, name)
    }

    override var argumentStride: Int { MemoryLayout<rx_value>.stride }

    override func apply(
      _ elements: UnsafePointer<RxValue>?, count: Int, arguments: UnsafeMutableRawPointer?, changed: Int,
      into result: UnsafeMutablePointer<RxValue>
    ) throws {
      guard let elements, let arguments, count > 0 else { return try applyOnStack(elements, count, into: result) }
      let views = arguments.assumingMemoryBound(to: rx_value.self)
      if changed >= 0 {
        views[changed] = RxValue.c(at: elements + changed)
      } else {
        for k in 0..<count { views[k] = RxValue.c(at: elements + k) }
      }
      var err: UnsafeMutablePointer<rx_error>? = nil
      // Unprotected: no stack-protector check for the one local whose address C gets.
      let r = _withUnprotectedUnsafeMutablePointer(to: &err) { fn(ctx, views, count, $0) }
      try store(r, err, into: result)
    }

    /// `apply` for a caller without an argument buffer (or with no elements): the views on
    /// the stack. Out of line, so `apply` keeps a small frame.
    @inline(never)
    private func applyOnStack(
      _ elements: UnsafePointer<RxValue>?, _ count: Int, into result: UnsafeMutablePointer<RxValue>
    ) throws {
      var err: UnsafeMutablePointer<rx_error>? = nil
      let r: rx_value
      if let elements, count > 0 {
        r = withUnsafeTemporaryAllocation(of: rx_value.self, capacity: count) { views in
          for k in 0..<count { views.initializeElement(at: k, to: RxValue.c(at: elements + k)) }
          return fn(ctx, views.baseAddress, count, &err)
        }
      } else {
        r = fn(ctx, nil, 0, &err)
      }
      try store(r, err, into: result)
    }

    /// The callback's result into `result`: an int, double or pointer by its 64 bits under the
    /// tag kind - 1 (the layout `RxValue.c(at:)` reads), with no jump table; anything else
    /// (an error, a bool, a box to check) as `CallbackResult.value` takes it.
    @inline(__always)
    private func store(_ r: rx_value, _ err: UnsafeMutablePointer<rx_error>?, into result: UnsafeMutablePointer<RxValue>) throws {
      let kind = r.kind.rawValue
      // RX_INT, RX_DOUBLE, RX_PTR: bits 1, 2 and 4.
      if err == nil, MemoryLayout<RxValue>.size == 9, kind < 32, (UInt32(0b10110) &>> kind) & 1 != 0 {
        let raw = UnsafeMutableRawPointer(result)
        raw.storeBytes(of: r.i, as: Int64.self)
        raw.storeBytes(of: UInt8(truncatingIfNeeded: kind &- 1), toByteOffset: 8, as: UInt8.self)
        return
      }
      result.initialize(to: try CallbackResult.value(r, err, name))
    }

    override func combine(_ values: UnsafeBufferPointer<RxValue>) throws -> RxValue {
      let result = UnsafeMutablePointer<RxValue>.allocate(capacity: 1)
      defer { result.deallocate() }
      try apply(values.baseAddress, count: values.count, arguments: nil, changed: -1, into: result)
      return result.move()
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
