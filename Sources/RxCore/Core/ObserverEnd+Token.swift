import CRxc
import CRxcCore

/// A C observer as the rx_disposable token of its subscription: made (or reused) at
/// subscribe, counted C references, rx_dispose and rx_release.
extension ObserverEnd {
  /// The token of a subscription that ended inside rx_subscribe (see `runToEnd`).
  @inlinable @inline(__always)
  public static func ended(_ callbacks: rx_observer) -> Unmanaged<ObserverEnd> {
    let o = make(callbacks)
    o._withUnsafeGuaranteedRef { $0.state.storeUnshared(TokenState(oneReference: [.stopped, .final])) }
    return o
  }

  /// Runs a subscription that ends before its token exists (an rx_just, or a map/filter
  /// pipeline on one): `element`'s outcome as on_next and on_completed, or on_error, then
  /// on_disposed, called in a row. No rx_dispose can reach a token that does not exist yet,
  /// so none of the delivery handshake is needed: the token is born ended.
  /// `run` hands the element, if there is one, to its argument (valid for that call), or
  /// throws.
  @inlinable @inline(__always)
  public static func runToEnd(_ callbacks: rx_observer, _ run: (_ next: (rx_value) -> Void) throws -> Void)
    -> UnsafeMutablePointer<rx_disposable>
  {
    let token = ended(callbacks).toOpaque()
    do {
      try run { callbacks.on_next?(callbacks.ctx, $0) }
      callbacks.on_completed?(callbacks.ctx)
    } catch {
      let e = ErrorObject.from(error)
      callbacks.on_error?(callbacks.ctx, e.cPointer)
      withExtendedLifetime(e) {}
    }
    callbacks.on_disposed?(callbacks.ctx)
    return token.assumingMemoryBound(to: rx_disposable.self)
  }

  /// A subscription to any other observable: its token.
  @inlinable @inline(never)
  public static func subscribe(_ callbacks: rx_observer, to observable: Observable<Value>) -> UnsafeMutablePointer<rx_disposable> {
    make(callbacks)._withUnsafeGuaranteedRef { o in
      o.attach(observable.subscribe(o))
      return o.token
    }
  }

  /// A new observer, returned with the one reference that its C token will own.
  @inlinable @inline(__always)
  public static func make(_ callbacks: rx_observer) -> Unmanaged<ObserverEnd> {
    if let p = rxc_spare_take_token() {
      let o = Unmanaged<ObserverEnd>.fromOpaque(p)
      o._withUnsafeGuaranteedRef { $0.revive(callbacks) }
      return o
    }
    return Unmanaged.passRetained(ObserverEnd(callbacks))
  }

  /// The token: this object (its C reference is the one `make` returned).
  public var token: UnsafeMutablePointer<rx_disposable> {
    Unmanaged.passUnretained(self).toOpaque().assumingMemoryBound(to: rx_disposable.self)
  }

  @inlinable public func releaseC() {
    if dropCReference() { Self.retire(Unmanaged.passUnretained(self)) }
  }

  /// The object behind a pointer already checked to be a live rx_disposable: a token when its
  /// class is exactly this one.
  @inlinable public static func token(at p: UnsafeRawPointer) -> ObserverEnd? {
    isToken(p) ? Unmanaged<ObserverEnd>.fromOpaque(p).takeUnretainedValue() : nil
  }

  @inlinable @inline(__always)
  public static func isToken(_ p: UnsafeRawPointer) -> Bool {
    p.load(as: UnsafeRawPointer.self) == rxc_token_class()
  }

  /// rx_dispose on a token (checked live).
  @inlinable @inline(__always)
  public static func dispose(token p: UnsafeMutableRawPointer) -> rx_status {
    let token = Unmanaged<ObserverEnd>.fromOpaque(p)
    if token._withUnsafeGuaranteedRef({ $0.disposeAndDropCReference() }) { retire(token) }
    return RX_OK
  }

  /// rx_release on a token (checked live).
  @inlinable @inline(never)
  public static func release(token p: UnsafeMutableRawPointer) {
    let token = Unmanaged<ObserverEnd>.fromOpaque(p)
    if token._withUnsafeGuaranteedRef({ $0.dropOnlyReference() }) {
      token._withUnsafeGuaranteedRef { $0.magic = AbiObject.deadMagic }
      return retireUnique(token)
    }
    if token._withUnsafeGuaranteedRef({ $0.dropCReference() }) { retire(token) }
  }
}
