import CRxc

extension RxValue {
  /// Takes over an owned value a C callback returned: the callback's reference to the box
  /// becomes the Swift reference, so the box is neither leaked nor freed twice. Nil (and
  /// nothing taken) if the value is not valid.
  static func takeOwned(_ v: rx_value, _ fn: StaticString) -> RxValue? {
    guard let value = RxValue.from(v, fn) else { return nil }
    if case .boxed(let box) = value { Unmanaged.passUnretained(box).release() }
    return value
  }
}
