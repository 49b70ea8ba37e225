import CRxc

/// A C callback and its ctx, for the operators that call it directly (no closure; see
/// CCallbackOperators). Everything that can still call `fn` holds a copy, and so `owner`:
/// ctx_free runs once, after the last use. No ctx_free, no owner (saves an allocation).
@_spi(RxC) public struct CFunction<Fn> {
  public let fn: Fn
  public let ctx: UnsafeMutableRawPointer?
  public let owner: CContext?

  public init(_ fn: Fn, _ ctx: UnsafeMutableRawPointer?, _ free: rx_free_fn?) {
    self.fn = fn
    self.ctx = ctx
    self.owner = free.map { CContext(ctx, $0) }
  }
}

/// Adapters from C callback types to the core's closures. Each closure holds the CContext,
/// so ctx_free runs once the observable and every subscription using it are gone.
@_spi(RxC) public enum CAdapt {
  /// The C combine function as a selector object (rx_combine_latest, rx_zip,
  /// rx_with_latest_from): the sink calls it as a method, with no closure context to retain
  /// and release per combination. Each subscription keeps the C argument array in its
  /// argument buffer: views of the sink's slots (valid while those hold their elements), so a
  /// combination converts only the element that changed and copies nothing else, with no
  /// allocation. Final, with a pointer-only `apply`: the sink's one virtual call lands here
  /// directly (no reabstraction thunk).
  public final class Combining: CombiningFunction<Value, Value> {
    let fn: rx_combine_fn
    let context: CContext
    /// `context.ctx`, one load nearer.
    let ctx: UnsafeMutableRawPointer?
    let name: StaticString
    public init(_ fn: rx_combine_fn, _ context: CContext, _ name: StaticString) {
      (self.fn, self.context, self.ctx, self.name) = (fn, context, context.ctx, name)
    }

    public override var argumentStride: Int { MemoryLayout<rx_value>.stride }

    public override func apply(
      _ elements: UnsafePointer<Value>?, count: Int, arguments: UnsafeMutableRawPointer?, changed: Int,
      into result: UnsafeMutablePointer<Value>
    ) throws {
      guard let elements, let arguments, count > 0 else { return try applyOnStack(elements, count, into: result) }
      let views = arguments.assumingMemoryBound(to: rx_value.self)
      if changed >= 0 {
        views[changed] = Value.c(at: elements + changed)
      } else {
        for k in 0..<count { views[k] = Value.c(at: elements + k) }
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
      _ elements: UnsafePointer<Value>?, _ count: Int, into result: UnsafeMutablePointer<Value>
    ) throws {
      var err: UnsafeMutablePointer<rx_error>? = nil
      let r: rx_value
      if let elements, count > 0 {
        r = withUnsafeTemporaryAllocation(of: rx_value.self, capacity: count) { views in
          for k in 0..<count { views.initializeElement(at: k, to: Value.c(at: elements + k)) }
          return fn(ctx, views.baseAddress, count, &err)
        }
      } else {
        r = fn(ctx, nil, 0, &err)
      }
      try store(r, err, into: result)
    }

    /// The callback's result into `result`: an int, double or pointer by its 64 bits under the
    /// tag kind - 1 (the layout `Value.c(at:)` reads), with no jump table; anything else
    /// (an error, a bool, a box to check) as `CallbackResult.value` takes it.
    @inline(__always)
    private func store(_ r: rx_value, _ err: UnsafeMutablePointer<rx_error>?, into result: UnsafeMutablePointer<Value>) throws {
      let kind = r.kind.rawValue
      // RX_INT, RX_DOUBLE, RX_PTR: bits 1, 2 and 4.
      if err == nil, MemoryLayout<Value>.size == 9, kind < 32, (UInt32(0b10110) &>> kind) & 1 != 0 {
        let raw = UnsafeMutableRawPointer(result)
        raw.storeBytes(of: r.i, as: Int64.self)
        raw.storeBytes(of: UInt8(truncatingIfNeeded: kind &- 1), toByteOffset: 8, as: UInt8.self)
        return
      }
      result.initialize(to: try CallbackResult.value(r, err, name))
    }

    public override func combine(_ values: UnsafeBufferPointer<Value>) throws -> Value {
      let result = UnsafeMutablePointer<Value>.allocate(capacity: 1)
      defer { result.deallocate() }
      try apply(values.baseAddress, count: values.count, arguments: nil, changed: -1, into: result)
      return result.move()
    }
  }

  /// `fn` as a selector object, or RX_ARRAY results for a NULL fn; either way it holds
  /// `context`, so a ctx_free given with a NULL fn still runs once, at the end.
  public static func combining(_ fn: rx_combine_fn?, _ context: CContext, _ name: StaticString)
    -> CombiningSelector<Value, Value>
  {
    guard let fn else {
      return .buffer { values in withExtendedLifetime(context) { .boxed(ArrayBox(ContiguousArray(values))) } }
    }
    return .function(Combining(fn, context, name))
  }

  /// NULL combine function: the values as one RX_ARRAY.
  public static func array(_ values: [Value]) -> Value { .boxed(ArrayBox(ContiguousArray(values))) }

  public static func typeError(_ message: String) -> ErrorObject {
    ErrorObject.make(code: Int32(RX_ERROR_TYPE), message)
  }
}
