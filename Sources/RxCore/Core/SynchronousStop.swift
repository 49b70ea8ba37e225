import CRxcCore

/// How a synchronous loop (a range, an array, a fused pipeline's pulled source) knows when
/// to ask `wantsNoMoreEvents`. Asking walks the observer chain, one virtual call per
/// operator, per element; yet between two elements the answer changes only if something
/// stopped: a sink disposed, an observer end stopped, a group or window let go. Each of
/// those calls `noteStop()`, which bumps a per-thread count, so the loop asks only when the
/// count moved. A stop made on another thread moves no count here: the loop also asks every
/// `recheckInterval` elements, and the observer end delivers nothing after its stop anyway.
@frozen public struct SynchronousStop {
  @usableFromInline var seen: UInt
  @usableFromInline var left: UInt32

  @inlinable public static var recheckInterval: UInt32 { 64 }

  /// The first `mayHaveStopped` says yes.
  @inlinable @inline(__always) public init() {
    seen = UInt(rxc_stop_epoch()) &- 1
    left = 0
  }

  /// True when the loop should ask `wantsNoMoreEvents` now.
  @inlinable @inline(__always) public mutating func mayHaveStopped() -> Bool {
    let now = UInt(rxc_stop_epoch())
    if now == seen && left != 0 {
      left &-= 1
      return false
    }
    seen = now
    left = Self.recheckInterval
    return true
  }

  /// Something on this thread may have stopped wanting events.
  @inlinable @inline(__always) public static func noteStop() { rxc_stop_epoch_bump() }
}

extension Sink {
  /// `wantsNoMoreEvents` for a synchronous loop: the chain asked only when `stop` says so.
  @inlinable @inline(__always) public final func wantsNoMoreEvents(_ stop: inout SynchronousStop) -> Bool {
    isDisposed || (stop.mayHaveStopped() && wantsNoMoreEvents)
  }
}
