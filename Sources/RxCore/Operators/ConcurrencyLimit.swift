/// flat_map / merge with a maximum of inner subscriptions at once (RxSwift's
/// merge(maxConcurrent:)): an inner beyond the limit waits, in order, until one completes.
/// Inners are started outside the sink's drain, by the thread that admitted them or whose
/// inner completed; one that completes while being subscribed hands the next start back to
/// the loop in `finished` instead of recursing.
@usableFromInline final class ConcurrencyLimit: @unchecked Sendable {
  private struct State {
    var running = 0
    var waiting: [() -> Void] = []
    var head = 0  // waiting[head...] are still waiting
    var ready: [() -> Void] = []  // to be started by the thread in `finished`'s loop
    var starting = false
  }
  let max: Int
  private let state = Mutex(State())

  public init(max: Int) { self.max = max }

  /// An inner is ready: `start` runs now if fewer than `max` run, else when one finishes.
  public func admit(_ start: @escaping () -> Void) {
    let now = state.withLock { s -> Bool in
      if s.running < max {
        s.running += 1
        return true
      }
      s.waiting.append(start)
      return false
    }
    if now { start() }
  }

  /// Takes a place for an inner that runs now, in the caller, if one is free (then nothing
  /// waits either): true if it did, and the caller calls `finished` when it is done.
  public func tryAdmit() -> Bool {
    state.withLock { s -> Bool in
      if s.running < max {
        s.running += 1
        return true
      }
      return false
    }
  }

  /// A running inner completed: the first waiting one, if any, starts in its place.
  public func finished() {
    let loop = state.withLock { s -> Bool in
      if s.head < s.waiting.count {
        s.ready.append(s.waiting[s.head])
        s.head += 1
        if s.head == s.waiting.count {
          s.waiting.removeAll(keepingCapacity: true)
          s.head = 0
        }
      } else {
        s.running -= 1
      }
      if s.starting || s.ready.isEmpty { return false }
      s.starting = true
      return true
    }
    guard loop else { return }
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
      let d = (s.waiting, s.ready)
      s.waiting = []
      s.head = 0
      s.ready = []
      return d
    }
    withExtendedLifetime(dropped) {}  // released here, outside the lock
  }
}
