import CRxc
@_spi(RxC) import RxCore
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
    Resources.increment()  // first: an atomic after the stores makes ARC keep retain/release pairs around it
    super.init(kind: kind)
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
    if dropCReference() { Unmanaged.passUnretained(self).release() }
  }

  /// Drops one C reference; true when the caller must now release the Swift reference that
  /// backed them. Lets a caller that reached the handle unretained release it outside its
  /// borrow (`Unmanaged.release`), which a release inside the borrow would make it retain.
  final func dropCReference() -> Bool {
    // The caller owns one C reference: a count of 1 is that one, which no other owner can
    // change, so the last drop needs no locked RMW (the acquiring load sees the work of the
    // owners that dropped theirs before).
    if cRefs.load(ordering: .acquiring) == 1 {
      cRefs.store(0, ordering: .relaxed)
    } else {
      guard cRefs.wrappingSubtract(1, ordering: .acquiringAndReleasing).oldValue == 1 else { return false }
    }
    magic = AbiObject.deadMagic
    Resources.decrement()
    destroyed()
    if debugPoison {
      poisoned()
      return false
    }
    return true
  }

  /// A dropped handle made live again with one C reference, for reuse (see ObservableHandle).
  final func revive() {
    Resources.increment()
    cRefs.store(1, ordering: .relaxed)
    magic = AbiObject.liveMagic
  }

  /// Runs once, when the last C reference is released.
  func destroyed() {}

  /// Runs after `destroyed()` under RXC_DEBUG, where the handle itself stays allocated:
  /// lets go of what it holds, so the objects behind it end (and the user's ctx_free runs)
  /// as they would without RXC_DEBUG.
  func poisoned() {}
}
