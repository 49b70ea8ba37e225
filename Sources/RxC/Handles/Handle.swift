import CRxc
import RxCore
import Synchronization

/// An object the C program owns references to (observable, subject, scheduler, disposable,
/// dispose bag, emitter). The C reference count is separate from Swift's: when the last C
/// reference goes, `destroyed()` runs (a subject disposes itself, a bag drains), the handle
/// is poisoned, and the one Swift reference that backed the C references is dropped (kept,
/// under RXC_DEBUG, so later misuse is detected). Internal Swift references may keep the
/// object's memory alive a little longer; they never make it a live handle again.
class Handle: AbiObject {
  final let cRefs = Atomic<Int>(1)

  override init(kind: ObjectKind) {
    super.init(kind: kind)
    Resources.increment()
  }

  /// Hands the new handle to C with one C reference.
  final func toC() -> UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }

  final func retainC() -> Bool {
    var current = cRefs.load(ordering: .relaxed)
    while current > 0 {
      let (exchanged, original) = cRefs.compareExchange(
        expected: current, desired: current + 1, ordering: .relaxed)
      if exchanged { return true }
      current = original
    }
    return false
  }

  final func releaseC() {
    let old = cRefs.subtract(1, ordering: .acquiringAndReleasing).oldValue
    guard old == 1 else { return }
    magic = AbiObject.deadMagic
    Resources.decrement()
    destroyed()
    if !debugPoison { Unmanaged.passUnretained(self).release() }
  }

  /// Runs once, when the last C reference is released.
  func destroyed() {}
}
