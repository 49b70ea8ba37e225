import CRxc
@_spi(RxC) import RxCore

extension RxValue {
  /// Takes over an owned value a C callback returned: the callback's reference to the box
  /// becomes the Swift reference, so the box is neither leaked nor freed twice. Nil (and
  /// nothing taken) if the value is not valid.
  static func takeOwned(_ v: rx_value, _ fn: StaticString) -> RxValue? {
    guard v.kind.rawValue >= RX_STRING.rawValue else { return RxValue.from(v, fn) }
    return RxValue.borrowedBox(v, fn).map { .boxed($0.takeRetainedValue()) }  // no retain/release pair
  }
}
