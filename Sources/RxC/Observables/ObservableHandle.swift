import CRxc
import RxCore

/// An rx_observable: a C-owned reference to a core observable, or, for rx_just, just its
/// value (one allocation, not two): operators that know scalars (map, filter, flat_map) use
/// the value directly; anything else gets a fresh `just` observable (stateless, so a fresh
/// one is the same observable).
final class ObservableHandle: Handle {
  private let core: Observable<RxValue>?
  /// The value of an rx_just handle.
  let scalar: RxValue?
  /// Set on observables made by rx_as_driver (rx_drive accepts only those).
  let isDriver: Bool
  /// Set on rx_publish/rx_replay results (rx_connect/rx_ref_count accept only those).
  let connectable: AnyObject?

  // `consuming`: the new observable is handed over, not retained again.
  init(_ observable: consuming Observable<RxValue>, isDriver: Bool = false, connectable: AnyObject? = nil) {
    self.core = observable
    self.scalar = nil
    self.isDriver = isDriver
    self.connectable = connectable
    super.init(kind: .observable)
  }

  init(scalar: RxValue) {
    self.core = nil
    self.scalar = scalar
    self.isDriver = false
    self.connectable = nil
    super.init(kind: .observable)
  }

  var observable: Observable<RxValue> { core ?? RxJust(scalar.unsafelyUnwrapped) }

  /// A new owned rx_observable for C.
  static func make(_ observable: consuming Observable<RxValue>) -> UnsafeMutablePointer<rx_observable> {
    ObservableHandle(observable).cPointer
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
    guard let h = from(p, fn, "returned observable") else { return nil }
    let source: RxSource = if let v = h.scalar { .scalar(v) } else { .observable(h.observable) }
    h.releaseC()
    return source
  }

  /// What operators that know scalars read from the handle.
  var source: RxSource { if let v = scalar { .scalar(v) } else { .observable(observable) } }
}

/// An observable, or the value of a `just` (see ObservableHandle).
enum RxSource {
  case observable(Observable<RxValue>)
  case scalar(RxValue)
}
