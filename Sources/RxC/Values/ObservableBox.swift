import CRxc
@_spi(RxC) import RxCore

/// Holds one C reference to an observable handle (streams of streams). A box that
/// rx_value_release drops for good is emptied (its handle's reference released then, so
/// ctx_free timing is unchanged) and kept as this thread's spare: a C loop that wraps an
/// observable per element (`rx_observable_value`, emit, `rx_value_release`) allocates no box.
/// A spare is not live (dead magic, not counted by Resources); not under RXC_DEBUG.
final class ObservableBox: ValueBox {
  /// Kept alive by the box's C reference (a handle lives while it has C references), so not
  /// retained. Nil only while the box is a spare.
  private var held: Unmanaged<ObservableHandle>?

  var handle: ObservableHandle { held.unsafelyUnwrapped.takeUnretainedValue() }

  /// The handle's observable or scalar, as the higher-order operators take it (read without
  /// a retain of the handle).
  var selection: FlatMapSelection { held.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.source.selection } }

  /// `handle` is live and the caller holds a C reference to it (so `retainC` succeeds).
  private init(_ handle: ObservableHandle) {
    held = Unmanaged.passUnretained(handle)
    _ = handle.retainC()
    super.init(RX_OBSERVABLE)
  }

  /// A box holding a C reference to `handle` (live, referenced by the caller): this thread's
  /// spare, or a new one.
  static func make(_ handle: ObservableHandle) -> ObservableBox { retained(handle).takeRetainedValue() }

  /// `make`, as the new reference (what rx_observable_value hands to C without a retain and
  /// release of its own).
  static func retained(_ handle: ObservableHandle) -> Unmanaged<ObservableBox> {
    guard let p = rxc_spare_take_observable_box() else { return Unmanaged.passRetained(ObservableBox(handle)) }
    let box = Unmanaged<ObservableBox>.fromOpaque(p)
    Resources.increment()
    box._withUnsafeGuaranteedRef {
      $0.magic = AbiObject.liveMagic
      $0.held = Unmanaged.passUnretained(handle)
    }
    _ = handle.retainC()
    return box
  }

  /// A box for a core observable, in a new handle that the box alone references.
  static func make(_ observable: Observable<RxValue>) -> ObservableBox {
    let handle = ObservableHandle(observable)
    _ = handle.toC()  // the handle's first C reference, dropped once the box holds its own
    let box = make(handle)
    handle.releaseC()
    return box
  }

  /// rx_value_release of an observable's box (C's reference, moved here).
  static func release(_ u: Unmanaged<ObservableBox>) {
    var box = u.takeRetainedValue()
    guard isKnownUniquelyReferenced(&box), mayReuseUniqueObject(), !debugPoison else { return }
    dropHandle(box.held.unsafelyUnwrapped)
    box.held = nil
    box.magic = AbiObject.deadMagic
    Resources.decrement()
    let p = Unmanaged.passRetained(consume box).toOpaque()
    if !keepAsSpare(p, { rxc_spare_put_observable_box($0) }) { Unmanaged<ObservableBox>.fromOpaque(p).release() }
  }

  deinit {
    if let held { Self.dropHandle(held) } else { Resources.increment() }  // a spare was counted out
  }

  /// Drops the box's C reference, as rx_release would.
  private static func dropHandle(_ h: Unmanaged<ObservableHandle>) {
    if h._withUnsafeGuaranteedRef({ $0.dropCReference() }) { ObservableHandle.retire(h) }
  }

  override func isEqual(to other: ValueBox) -> Bool {
    guard let o = other as? ObservableBox else { return false }
    return handle === o.handle
  }
}
