import CRxc
import Glibc
@_spi(RxC) import RxCore

/// An rx_observable: a C-owned reference to a core observable, or, for rx_just, just its
/// value (one allocation, not two): operators that know scalars (map, filter, flat_map) use
/// the value directly; anything else gets a fresh `just` observable (stateless, so a fresh
/// one is the same observable).
final class ObservableHandle: Handle {
  // Unmanaged, released by hand in deinit: with two or more class references stored, the
  // synthesized deinit retains and releases the handle itself around releasing them.
  // `var` only for `reuse` (a spare handle is refilled in place).
  private var core: Unmanaged<Observable<RxValue>>?
  /// The value of an rx_just handle (`.none` when `core` is set).
  private var value: RxValue
  /// Set on observables made by rx_as_driver / rx_as_signal (rx_drive / rx_emit accept only
  /// those).
  private(set) var cocoaTrait: CocoaTrait
  /// What `core` is, where rx_subscribe has a path of its own for it (a hint: `.observable`
  /// is always right).
  private(set) var sort: Sort
  private var connectableRef: Unmanaged<AnyObject>?

  // `consume`: the new observable is moved into the handle. Without it the stored copy is
  // retained and the parameter released after Handle.init's atomic (ARC cannot pair the two
  // across it).
  init(
    _ observable: consuming Observable<RxValue>, cocoaTrait: CocoaTrait = .none, connectable: consuming AnyObject? = nil,
    sort: Sort = .observable
  ) {
    self.core = Unmanaged.passRetained(consume observable)
    self.value = .none
    self.cocoaTrait = cocoaTrait
    self.sort = sort
    self.connectableRef = (consume connectable).map { Unmanaged.passRetained($0) }
    super.init(kind: .observable)
  }

  init(scalar: consuming RxValue) {
    self.core = nil
    self.value = consume scalar
    self.cocoaTrait = .none
    self.sort = .observable
    self.connectableRef = nil
    super.init(kind: .observable)
  }

  deinit {
    core?.release()
    connectableRef?.release()
  }

  override func poisoned() {
    core?.release()
    core = nil
    ValueSlot.empty(&value)
    connectableRef?.release()
    connectableRef = nil
  }

  /// Set on rx_publish/rx_replay results (rx_connect/rx_ref_count accept only those).
  var connectable: AnyObject? { connectableRef?.takeUnretainedValue() }

  var observable: Observable<RxValue> { core?.takeUnretainedValue() ?? ValueJust(value) }

  /// The value of an rx_just handle, nil for any other.
  var scalar: RxValue? { core == nil ? value : nil }

  /// The value of an rx_just handle as C sees it, borrowed (valid while the handle lives).
  /// A read in place: other threads may read it at the same time.
  var scalarC: rx_value { value.c }

  /// Copies the value of an rx_just handle into `slot` (uninitialized, or holding a value
  /// without a box), without the generic enum copy for a plain value.
  @inline(__always)
  func copyScalar(into slot: UnsafeMutablePointer<RxValue>) {
    let c = value.c
    if c.kind.rawValue < RX_STRING.rawValue {
      slot.initialize(to: RxValue.from(c, "rx_just").unsafelyUnwrapped)  // plain: always valid
    } else {
      slot.initialize(to: value)
    }
  }

  /// The core observable, unretained (nil for a scalar): callers borrow it under their own
  /// reference to the handle.
  var unretainedCore: Unmanaged<Observable<RxValue>>? { core }

  /// RxCocoa's traits, which only their own subscribe functions accept.
  enum CocoaTrait: UInt8 {
    case none, driver, signal
  }

  enum Sort: UInt8 {
    case observable, subject, pipeline
  }

  /// A new owned rx_observable for C.
  static func make(_ observable: consuming Observable<RxValue>) -> UnsafeMutablePointer<rx_observable> {
    make(consume observable, .observable)
  }

  /// rx_map's and rx_filter's handle.
  static func make(_ pipeline: consuming CPipeline) -> UnsafeMutablePointer<rx_observable> {
    make(consume pipeline, .pipeline)
  }

  /// The fused pipeline when the operator joined its source's (`CPipeline.joining`), else
  /// the operator's own observable.
  static func make(_ pipeline: consuming CPipeline?, else observable: () -> Observable<RxValue>)
    -> UnsafeMutablePointer<rx_observable>
  {
    if let pipeline { return make(pipeline) }
    return make(observable())
  }

  @inline(__always)
  private static func make(_ observable: consuming Observable<RxValue>, _ sort: Sort) -> UnsafeMutablePointer<rx_observable> {
    if let spare = takeSpare() {
      spare._withUnsafeGuaranteedRef {
        $0.core = Unmanaged.passRetained(observable)
        $0.sort = sort
      }
      return spare.toOpaque().assumingMemoryBound(to: rx_observable.self)
    }
    return ObservableHandle(observable, sort: sort).cPointer
  }

  /// A spare (holding `.none`) given rx_just's value.
  @inline(__always)
  private func refill(scalar: consuming RxValue) {
    ValueSlot.fill(&value, with: scalar)
    sort = .observable
  }

  /// rx_just's handle.
  static func make(scalar: consuming RxValue) -> UnsafeMutablePointer<rx_observable> {
    if let spare = takeSpare() {
      spare.takeUnretainedValue().refill(scalar: scalar)
      return spare.toOpaque().assumingMemoryBound(to: rx_observable.self)
    }
    return ObservableHandle(scalar: scalar).cPointer
  }

  var cPointer: UnsafeMutablePointer<rx_observable> {
    toC().assumingMemoryBound(to: rx_observable.self)
  }

  /// The same handle, borrowed (no new C reference).
  var borrowedPointer: UnsafeMutablePointer<rx_observable> {
    Unmanaged.passUnretained(self).toOpaque().assumingMemoryBound(to: rx_observable.self)
  }

  /// Every `.observable` object is an ObservableHandle (final), so the kind check is the
  /// class check: no dynamic cast.
  @inline(__always)
  static func from(_ p: UnsafeRawPointer?, _ fn: StaticString, _ arg: StaticString = "source")
    -> ObservableHandle?
  {
    guard let p = Validate.pointer(p, .observable, fn, arg) else { return nil }
    return Unmanaged<ObservableHandle>.fromOpaque(p).takeUnretainedValue()
  }

  /// `from`, with the handle borrowed for `body` (no retain/release of it).
  @inline(__always)
  static func with<R>(
    _ p: UnsafeRawPointer?, _ fn: StaticString, _ arg: StaticString = "source", _ body: (ObservableHandle) -> R?
  ) -> R? {
    guard let p = Validate.pointer(p, .observable, fn, arg) else { return nil }
    return Unmanaged<ObservableHandle>.fromOpaque(p)._withUnsafeGuaranteedRef(body)
  }

  /// Takes ownership of an rx_observable a user callback returned: its core observable,
  /// with the callback's C reference released. Nil if it is not a live observable.
  static func take(_ p: UnsafeMutablePointer<rx_observable>?, _ fn: StaticString) -> Observable<RxValue>? {
    guard let h = from(p, fn, "returned observable") else { return nil }
    let o = h.observable
    h.releaseC()
    return o
  }

  /// `take`, keeping a scalar as its value.
  static func takeSource(_ p: UnsafeMutablePointer<rx_observable>?, _ fn: StaticString) -> RxSource? {
    guard let p = Validate.pointer(p, .observable, fn, "returned observable") else { return nil }
    let h = Unmanaged<ObservableHandle>.fromOpaque(p)
    let source = h._withUnsafeGuaranteedRef { $0.source }
    if h._withUnsafeGuaranteedRef({ $0.dropCReference() }) { retire(h) }
    return source
  }

  /// What operators that know scalars read from the handle.
  var source: RxSource { if let core { .observable(core.takeUnretainedValue()) } else { .scalar(value) } }
}

/// An observable, or the value of a `just` (see ObservableHandle).
enum RxSource {
  case observable(Observable<RxValue>)
  case scalar(RxValue)

  /// As the core's higher-order operators take it: a scalar needs no `just`.
  var selection: FlatMapSelection {
    switch self {
    case .observable(let o): .observable(o)
    case .scalar(let v): .element(v)
    }
  }
}

// MARK: reuse

/// Each thread keeps the last two handles it dropped for its next rx_just or operator results:
/// paths that make and drop them per element (a flat_map callback returning rx_just(v), a
/// just -> map -> subscribe lifecycle's two handles) then skip a malloc, a free and the object set-up and
/// tear-down. The spare is empty (its observable and value released when it was dropped, so
/// ctx_free timing is unchanged), not live (dead magic, not counted by Resources), and owned
/// by the thread's slots; a thread's exit releases it. Not under RXC_DEBUG, where
/// released handles stay poisoned.
extension ObservableHandle {
  /// Releases the Swift reference that backed a handle's C references (after
  /// `dropCReference` returned true): emptied into this thread's spare slots
  /// (Sources/CRxc/spare_handles.c) if nothing else holds the handle and a slot is free, else
  /// the ordinary release.
  static func retire(_ h: Unmanaged<ObservableHandle>) {
    var handle = h.takeRetainedValue()
    guard isKnownUniquelyReferenced(&handle), mayReuseUniqueObject() else { return }
    if let core = handle.core {
      if handle.sort == .pipeline {
        CPipeline.recycle(unsafeBitCast(core, to: Unmanaged<CPipeline>.self))
      } else {
        core.release()
      }
    }
    handle.core = nil
    ValueSlot.empty(&handle.value)
    handle.cocoaTrait = .none
    if let c = handle.connectableRef {
      c.release()
      handle.connectableRef = nil
    }
    let p = Unmanaged.passRetained(consume handle).toOpaque()
    if !keepAsSpare(p, { rxc_spare_put($0) }) { Unmanaged<ObservableHandle>.fromOpaque(p).release() }
  }

  /// This thread's spare made live again with one C reference (the caller fills it in).
  @inline(__always)
  private static func takeSpare() -> Unmanaged<ObservableHandle>? {
    guard let p = rxc_spare_take() else { return nil }
    let h = Unmanaged<ObservableHandle>.fromOpaque(p)
    h._withUnsafeGuaranteedRef { $0.revive() }
    return h
  }
}
