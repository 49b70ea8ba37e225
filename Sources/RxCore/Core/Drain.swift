import Glibc
import Synchronization

/// Serializes work items from any number of threads, including re-entrant submissions from
/// inside a handler, without ever running a handler under a lock.
///
/// The first submitter that finds the drain idle becomes the drainer: it handles its own
/// item at once (one CAS in, one atomic decrement out when uncontended), then keeps
/// handling whatever others queued meanwhile. Everyone else appends to a locked queue and
/// returns; their item runs after the current one finishes, on the drainer's thread. A
/// re-entrant submission is therefore queued, never run recursively, and never dropped.
/// `wip` counts submissions not yet accounted for by the drainer (the RxJava "missed" loop).
///
/// Fairness: a thread that came with one item must not be kept draining for as long as other
/// threads keep submitting. After `fairShare` items the drainer offers its role (`handoff`);
/// the next thread that queues an item takes it over and drains instead, and the first one
/// returns. With no taker within a short spin it withdraws the offer and goes on.
public final class Drain<Item> {
  @usableFromInline let wip = Atomic<Int>(0)
  /// Guards `queue`, held only for an append or a buffer swap (see `SpinLock`).
  @usableFromInline let queueLock = SpinLock()
  @usableFromInline var queue = RingBuffer<Item>()
  /// An owner kept alive until the drain goes idle (see `keepAliveWhileDraining`).
  @usableFromInline let parked = Atomic<UnsafeMutableRawPointer?>(nil)
  /// The drainer's spare buffer (only the draining thread touches it).
  @usableFromInline var batch = RingBuffer<Item>()
  /// 0: no offer; 1: the drainer offers its role; 2: a submitter took it and waits for the
  /// drainer to let go (it stores 0 as its last access).
  @usableFromInline let handoff = Atomic<Int>(0)
  /// The offering drainer's unaccounted `wip` count, for the taker (written before the offer).
  @usableFromInline var handoffMissed = 0
  @usableFromInline static var fairShare: Int { 256 }

  public init() {}

  /// True while some thread is draining (for diagnostics and tests).
  public var isDraining: Bool { wip.load(ordering: .acquiring) != 0 }

  @inlinable @inline(__always)
  public func submit(_ item: Item, _ handle: (Item) -> Void) {
    if tryEnter() {
      handle(item)
      exit(handle)
    } else {
      submitQueued(item, handle)
    }
  }

  /// `submit` for callers that can do the work without building an `Item`: when the drain
  /// is idle `inline` runs instead, and `item` is never made.
  @inlinable @inline(__always)
  public func submit(_ item: @autoclosure () -> Item, inline: () -> Void, _ handle: (Item) -> Void) {
    if tryEnter() {
      inline()
      exit(handle)
    } else {
      submitQueued(item(), handle)
    }
  }

  /// Becomes the drainer if the drain is idle (one CAS). A caller that gets true handles
  /// its own work inline, without building an `Item`, and must then call `exit`.
  @inlinable @inline(__always)
  public func tryEnter() -> Bool {
    wip.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
  }

  /// Leaves after `tryEnter`: handles what others queued meanwhile (one atomic decrement
  /// when nothing was).
  @inlinable @inline(__always)
  public func exit(_ handle: (Item) -> Void) {
    let left = wip.wrappingSubtract(1, ordering: .sequentiallyConsistent).newValue
    if left != 0 {
      drainLoop(missed: left, handle)
    } else if parked.load(ordering: .sequentiallyConsistent) != nil {
      releaseParked()
    }
  }

  /// Queues `item` for the current drainer, or drains it (and anything else) if the drain
  /// went idle meanwhile: for callers whose `tryEnter` failed.
  @inlinable
  public func submitQueued(_ item: Item, _ handle: (Item) -> Void) {
    enqueue(item)
    if wip.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 {
      drainLoop(missed: 1, handle)
    } else if handoff.load(ordering: .relaxed) == 1 {
      takeOver(handle)
    }
  }

  /// Takes the drainer's role if it is still on offer, then drains in its place.
  @usableFromInline
  func takeOver(_ handle: (Item) -> Void) {
    guard handoff.compareExchange(expected: 1, desired: 2, ordering: .acquiringAndReleasing).exchanged
    else { return }
    // Wait for the previous drainer to let go: after that it touches nothing of this drain.
    var spins = 0
    while handoff.load(ordering: .acquiring) != 0 {
      spins += 1
      if spins > 64 { sched_yield() }
    }
    drainLoop(missed: handoffMissed, handle)
  }

  /// Offers the drainer's role to the next submitter. True if one took it: the caller
  /// must return at once and touch nothing more of this drain.
  @usableFromInline
  func offerHandoff(missed: Int) -> Bool {
    handoffMissed = missed
    handoff.store(1, ordering: .releasing)
    for _ in 0..<2048 {
      if handoff.load(ordering: .acquiring) == 2 { break }
    }
    if handoff.compareExchange(expected: 1, desired: 0, ordering: .acquiringAndReleasing).exchanged {
      return false  // nobody came: keep draining
    }
    handoff.store(0, ordering: .releasing)  // taken: let the taker go
    return true
  }

  @inlinable
  func enqueue(_ item: Item) {
    queueLock.lock()
    queue.append(item)
    queueLock.unlock()
  }

  @usableFromInline
  func drainLoop(missed: Int, _ handle: (Item) -> Void) {
    var missed = missed
    var handled = 0
    while true {
      // Take the queue a batch at a time (one lock per batch, not per item). The queue and
      // `batch` trade buffers, so a warm drain allocates nothing.
      while true {
        queueLock.lock()
        swap(&queue, &batch)
        queueLock.unlock()
        if batch.isEmpty { break }
        while let item = batch.popFirst() {
          handle(item)
          handled += 1
        }
        // Between batches (`batch` is empty): offer the role if this thread did its share.
        if handled >= Self.fairShare {
          if offerHandoff(missed: missed) { return }
          handled = 0
        }
      }
      missed = wip.wrappingSubtract(missed, ordering: .sequentiallyConsistent).newValue
      if missed == 0 {
        if parked.load(ordering: .sequentiallyConsistent) != nil { releaseParked() }
        return
      }
    }
  }

  /// Keeps `owner` (the object that owns this drain) alive until no thread is draining.
  /// For an owner whose last reference is dropped from inside one of its own handlers (a C
  /// callback releasing its subject): the handler's caller still runs on the owner. Costs
  /// the hot path nothing but one plain load after the drain goes idle.
  public func keepAliveWhileDraining(_ owner: AnyObject) {
    guard isDraining else { return }
    let p = Unmanaged.passRetained(owner).toOpaque()
    if let previous = parked.exchange(p, ordering: .sequentiallyConsistent) {
      Unmanaged<AnyObject>.fromOpaque(previous).release()
    }
    // The drainer may have gone idle before it could see `p`: then nobody else will take it.
    // (Both sides store, then load the other's word, sequentially consistent: at least one
    // of them sees the other.)
    if wip.load(ordering: .sequentiallyConsistent) == 0 { releaseParked() }
  }

  /// Called last by a drainer: this may free the drain itself, so nothing may follow it.
  @usableFromInline
  func releaseParked() {
    if let p = parked.exchange(nil, ordering: .acquiringAndReleasing) {
      Unmanaged<AnyObject>.fromOpaque(p).release()
    }
  }
}
