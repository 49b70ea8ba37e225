import CRxcCore
import Dispatch
import Synchronization

/// Where a queue scheduler's blocks run: a Dispatch queue (serial for width 1, else
/// concurrent: a wider limit is the caller's business), or, in a forked child, where
/// libdispatch no longer runs anything, a `ThreadPool` of `width` threads of its own,
/// made on first use there (as libuv restarts a loop's threads after uv_loop_fork). Work
/// queued in the parent at the moment of the fork stays the parent's.
final class WorkQueue: @unchecked Sendable {
  public let width: Int
  private let dispatch: DispatchQueue?  // nil when made in a forked child
  private let pool = ForkSafeMutex<(generation: UInt, pool: ThreadPool)?>(nil)  // a grandchild uses it

  public init(label: String, width: Int) {
    self.width = Swift.max(1, width)
    if rxc_fork_generation() == 0 {
      dispatch = DispatchQueue(label: label, attributes: width == 1 ? [] : .concurrent)
    } else {
      dispatch = nil
    }
  }

  /// True when blocks run on the library's own threads (in a forked child).
  @inline(__always) public var usesOwnThreads: Bool { rxc_fork_generation() != 0 }

  @inline(__always)
  public func async(_ work: @escaping () -> Void) {
    if rxc_fork_generation() == 0, let dispatch { dispatch.async(execute: work) } else { ownThreads().async(work) }
  }

  /// For a block made once and submitted many times (no allocation per call on Dispatch).
  @inline(__always)
  public func asyncReusing(_ block: @escaping @convention(block) () -> Void) {
    if rxc_fork_generation() == 0, let dispatch { dispatch.async(execute: block) } else { ownThreads().async { block() } }
  }

  private func ownThreads() -> ThreadPool {
    let generation = rxc_fork_generation()
    let (current, replaced) = pool.withLock { p -> (ThreadPool, ThreadPool?) in
      if let p, p.generation == generation { return (p.pool, nil) }
      let fresh = ThreadPool(width: width)
      defer { p = (generation, fresh) }
      return (fresh, p?.pool)
    }
    withExtendedLifetime(replaced) {}  // the parent's pool (and the work it held) goes after unlocking
    return current
  }
}

/// A due timer's action runs on the queue (see Timers).
extension WorkQueue: TimerTarget {
  public func timerFired(_ action: ScheduledAction) { async { action.run() } }
}
