/// flat_map / merge with a maximum of inner subscriptions at once (RxSwift's
/// merge(maxConcurrent:)): an inner beyond the limit waits, in order, until one completes.
/// Inners are started outside the sink's drain, by the thread that admitted them or whose
/// inner completed; one that completes while being subscribed hands the next start back to
/// the loop in `finished` instead of recursing.
@usableFromInline final class ConcurrencyLimit: @unchecked Sendable {
  private struct State {
    var admission = Admission(waiting: [() -> Void]())
    var head = 0  // admission.waiting[head...] are still waiting
    var ready: [() -> Void] = []  // to be started by the thread in `finished`'s loop
    var starting = false
  }
  let max: Int
  private let state = Mutex(State())

  public init(max: Int) { self.max = max }

  /// An inner is ready: `start` runs now if fewer than `max` run, else when one finishes.
  public func admit(_ start: @escaping () -> Void) {
    if state.withLock({ $0.admission.admit(start, limit: max) }) { start() }
  }

  /// Takes a place for an inner that runs now, in the caller, if one is free (then nothing
  /// waits either): true if it did, and the caller calls `finished` when it is done.
  public func tryAdmit() -> Bool {
    state.withLock { $0.admission.take(limit: max) }
  }

  /// A running inner completed: the first waiting one, if any, starts in its place.
  public func finished() {
    // A local inline func: the closure literal stayed a call of its own per inner.
    @inline(__always) func handOn(_ s: inout State) -> Bool {
      // Moved to `ready` in place (through an optional, 2 instructions more per inner).
      if s.head < s.admission.waiting.count {
        s.ready.append(s.admission.waiting[s.head])
        s.head += 1
        if s.head == s.admission.waiting.count {
          s.admission.waiting.removeAll(keepingCapacity: true)
          s.head = 0
        }
      } else {
        s.admission.free()
      }
      if s.starting || s.ready.isEmpty { return false }
      s.starting = true
      return true
    }
    guard state.withLock(handOn) else { return }
    while true {
      let next = state.withLock { s -> (() -> Void)? in
        if s.ready.isEmpty {
          s.starting = false
          return nil
        }
        return s.ready.removeFirst()
      }
      guard let next else { return }
      next()
    }
  }

  /// Drops what waits (the sink is done): its closures hold the sink.
  public func clear() {
    let dropped = state.withLock { s -> ([() -> Void], [() -> Void]) in
      let d = (s.admission.waiting, s.ready)
      s.admission.waiting = []
      s.head = 0
      s.ready = []
      return d
    }
    withExtendedLifetime(dropped) {}  // released here, outside the lock
  }
}

/// At most `limit` running at once, the rest waiting in order (flat_map's inners, an
/// operation queue's actions): the count of those running and the queue of those waiting,
/// kept under its owner's lock. The owner takes the next waiting one out of its queue.
struct Admission<Queue: WaitingQueue> {
  private(set) var running = 0
  var waiting: Queue

  init(waiting: Queue) { self.waiting = waiting }

  /// Takes a place if one is free.
  @inline(__always) mutating func take(limit: Int) -> Bool {
    if running < limit {
      running += 1
      return true
    }
    return false
  }

  /// True: `item` runs now, in a place taken for it; false: it waits.
  @inline(__always) mutating func admit(_ item: Queue.Item, limit: Int) -> Bool {
    if take(limit: limit) { return true }
    waiting.append(item)
    return false
  }

  /// One that ran is done and none waits: its place is free.
  @inline(__always) mutating func free() { running -= 1 }
}

/// Where an `Admission`'s items wait.
protocol WaitingQueue {
  associatedtype Item
  mutating func append(_ item: Item)
}

extension Array: WaitingQueue {}
extension RingBuffer: WaitingQueue {}
