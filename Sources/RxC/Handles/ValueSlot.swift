@_spi(RxC) import RxCore
/// Stored RxValues that are refilled and emptied by hand (the rx_just value of a spare
/// handle or pipeline, once per just -> map -> subscribe lifecycle). Swift's copy and destroy
/// of the enum are outlined calls that switch over every case; only a box holds a reference,
/// so these look for that one case.
enum ValueSlot {
  /// `slot` (holding a value without a box) becomes `value`.
  @inline(__always)
  static func fill(_ slot: UnsafeMutablePointer<RxValue>, with value: consuming RxValue) {
    slot.initialize(to: value)
  }

  /// `slot` back to `.none`, its box released if it has one.
  @inline(__always)
  static func empty(_ slot: UnsafeMutablePointer<RxValue>) {
    if case .boxed = slot.pointee { slot.pointee = .none } else { slot.initialize(to: .none) }
  }
}
