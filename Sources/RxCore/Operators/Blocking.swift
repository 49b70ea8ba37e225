import Dispatch
import Synchronization

/// How a blocking wait ended.
public enum BlockingOutcome<Element> {
  case completed([Element])
  case failed(any Error)
  case timedOut
  /// Called on a run loop's thread (main's included) from inside that loop's work: the loop
  /// cannot be run there, and blocking would deadlock any work the stream needs from it.
  case nestedRunLoop
}

extension Observable {
  /// Subscribes, waits for the terminal event (running the calling thread's run loop
  /// meanwhile: the main loop on the main thread, or the loop bound to this thread) and
  /// returns what arrived. `timeout` nil waits without limit; on
  /// time-out the subscription is disposed. `lastOnly` keeps just the last element.
  public func blockingCollect(timeout: Int64?, lastOnly: Bool = false) -> BlockingOutcome<Element> {
    let collector = BlockingCollector<Element>(lastOnly: lastOnly)
    let subscription = subscribe(collector)
    let deadline = timeout.map { MonotonicClock.deadline(after: $0, from: MonotonicClock.now()) }
    var finished: Bool
    if let loop = RunLoopScheduler.current {
      finished = collector.finished
      // Short slices, so a terminal event from another thread ends the wait promptly
      // without touching the loop's stop flag (which belongs to the program).
      while !finished {
        let now = MonotonicClock.now()
        if let deadline, now >= deadline { break }
        let slice = Swift.min(1_000_000, (deadline ?? Int64.max) - now)
        switch loop.run(timeout: slice, honoringStop: false) {
        case .ok: break
        case .nested, .wrongThread:
          subscription.dispose()
          return .nestedRunLoop
        case .closed:  // nothing will run on it again: wait as any other thread
          finished = collector.wait(until: deadline)
          subscription.dispose()
          return finished ? collector.outcome : .timedOut
        }
        finished = collector.finished
      }
    } else {
      finished = collector.wait(until: deadline)
    }
    subscription.dispose()
    return finished ? collector.outcome : .timedOut
  }
}

extension Observable {
  /// The first element, waited for as `blockingCollect` waits; the subscription ends at it
  /// (RxBlocking's `first()`). An empty source completes with no elements.
  public func blockingFirst(timeout: Int64?) -> BlockingOutcome<Element> {
    take(1).blockingCollect(timeout: timeout, lastOnly: true)
  }

  /// The only element (RxBlocking's `single()`): fails with `RxError.noElements` for none
  /// and `RxError.moreThanOneElement` at once at a second.
  public func blockingSingle(timeout: Int64?) -> BlockingOutcome<Element> {
    asSingle().blockingCollect(timeout: timeout, lastOnly: true)
  }
}

final class BlockingCollector<Element>: Observer<Element> {
  private struct State {
    var elements: [Element] = []
    var error: (any Error)?
    var done = false
  }
  private let state = Mutex(State())
  private let signal = DispatchSemaphore(value: 0)
  private let lastOnly: Bool

  init(lastOnly: Bool) {
    self.lastOnly = lastOnly
    super.init()
    Resources.increment()
  }

  deinit { Resources.decrement() }

  override func on(_ event: Event<Element>) {
    let signalNow: Bool = state.withLock { s in
      if s.done { return false }
      switch event {
      case .next(let e):
        if lastOnly { s.elements.removeAll(keepingCapacity: true) }
        s.elements.append(e)
        return false
      case .error(let e):
        s.error = e
        s.done = true
      case .completed:
        s.done = true
      }
      return true
    }
    if signalNow {
      SynchronousStop.noteStop()
      signal.signal()
    }
  }

  var finished: Bool { state.withLock { $0.done } }
  override var wantsNoMoreEvents: Bool { finished }

  /// Waits for the terminal event until `deadline` (nil: forever); true if it arrived.
  func wait(until deadline: Int64?) -> Bool {
    guard let deadline else {
      signal.wait()
      return true
    }
    let left = Swift.max(0, deadline - MonotonicClock.now())
    if signal.wait(timeout: .now() + .nanoseconds(Int(Swift.min(left, Int64(Int.max))))) == .success {
      return true
    }
    return finished
  }

  var outcome: BlockingOutcome<Element> {
    state.withLock { s in
      if let error = s.error { return .failed(error) }
      return .completed(s.elements)
    }
  }
}
