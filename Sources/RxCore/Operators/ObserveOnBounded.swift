import Glibc
import Synchronization

/// What a bounded observe_on does with a value that finds its queue full.
public enum FlowPolicy: Equatable, Sendable {
  /// Takes the oldest queued value out to make room.
  case dropOldest
  /// Drops the value that arrived.
  case dropNewest
  /// One slot: each value replaces the one still waiting.
  case keepLatest
  /// Drops the value, queues `RxError.overflow` behind what is queued, disposes upstream.
  case fail
  /// Waits up to `timeoutNanos` for room (blocking the producer), then acts as `fail`.
  case block(timeoutNanos: Int64)
}

/// Counters of one bounded observe_on observable, summed over its subscriptions. Readable
/// from any thread at any time (relaxed atomics). Values are `received`, then `delivered`,
/// `dropped`, or still queued (or released by a dispose: nobody was listening any more).
@_spi(RxC) public final class FlowCounters: @unchecked Sendable {
  /// Written by producers.
  public let received = Atomic<UInt64>(0)
  public let dropped = Atomic<UInt64>(0)
  /// Streams failed by the policy `fail` (or a `block` that timed out).
  public let overflows = Atomic<UInt64>(0)
  // The drains write `delivered` per event, producers the fields above: apart, they do not
  // share a cache line.
  let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
  /// Written by the drains, once per batch.
  public let delivered = Atomic<UInt64>(0)

  public init() {}
}

/// A snapshot of a flow-controlled observable's counters (`FlowCounted.flowStats`).
public struct FlowStats: Equatable, Sendable {
  public var received: UInt64
  public var delivered: UInt64
  public var dropped: UInt64
  public var overflows: UInt64

  init(_ counters: FlowCounters) {
    received = counters.received.load(ordering: .relaxed)
    delivered = counters.delivered.load(ordering: .relaxed)
    dropped = counters.dropped.load(ordering: .relaxed)
    overflows = counters.overflows.load(ordering: .relaxed)
  }
}

/// A bounded observe_on subscription's limit: at most `capacity` values queued, `policy` for
/// a value that finds the queue full, and the counters its sink adds to.
@_spi(RxC) public struct FlowLimit {
  public let policy: FlowPolicy
  public let capacity: Int
  public let counters: FlowCounters

  public init(policy: FlowPolicy, capacity: Int, counters: FlowCounters) {
    self.policy = policy == .keepLatest ? .dropOldest : policy
    self.capacity = policy == .keepLatest ? 1 : Swift.max(1, capacity)
    self.counters = counters
  }
}

/// What unbounded sinks' `counters` point at (they never touch it).
let unboundedCounters = FlowCounters()

/// The bounded sink's two sides. The drain takes each element under `headLock`; an
/// overflowing producer takes the oldest under it too. The producer checks for room against
/// its cached `takenSeen`, and reads `taken` only when that says full.
extension ObserveOnSink {
  /// The producer's side: values are checked against the capacity, terminal events are
  /// queued as they are (never dropped nor counted).
  final func gatedOn(_ event: consuming Event<Element>) {
    switch consume event {
    case .next(let element):
      gatedNext(element)
    case let stop:
      if stopped { return }
      stopped = true
      SynchronousStop.noteStop()
      tail.push(stop, pool: pool)
      published(1)
    }
  }

  final func gatedNext(_ element: consuming Element) {
    if stopped { return }
    counters._withUnsafeGuaranteedRef { _ = $0.received.wrappingAdd(1, ordering: .relaxed) }
    let pushed = published.load(ordering: .relaxed)
    if pushed &- takenSeen >= capacity {
      takenSeen = taken.load(ordering: .acquiring)
      if pushed &- takenSeen >= capacity { return overflow(element) }
    }
    tail.push(.next(element), pool: pool)
    published(1)
  }

  /// The drain's side: the oldest element, or nil once everything published is taken (the
  /// producer may have dropped the oldest since the drain counted).
  final func gatedPop() -> Event<Element>? {
    headLock.lock()
    let n = taken.load(ordering: .relaxed)
    // (A producer that dropped the oldest took some too: `taken` may have passed the cached count.)
    if publishedSeen <= n {
      publishedSeen = published.load(ordering: .acquiring)
      if publishedSeen == n {
        headLock.unlock()
        return nil
      }
    }
    let event = head.pop(pool: pool)
    taken.store(n &+ 1, ordering: .releasing)
    headLock.unlock()
    if case .next = event { deliveredSinceFlush &+= 1 }
    return event
  }

  /// Adds what the drain delivered to the counters: after each batch, and before it stops.
  final func flushDelivered() {
    if deliveredSinceFlush == 0 { return }
    let n = deliveredSinceFlush
    deliveredSinceFlush = 0
    counters._withUnsafeGuaranteedRef { _ = $0.delivered.wrappingAdd(n, ordering: .relaxed) }
  }

  /// A drain's copy of `head`, which a bounded sink's drain never uses: read under the lock,
  /// since the producer may be moving it.
  final func headForDrain() -> Queue.Head {
    if !bounded { return head }
    headLock.lock()
    defer { headLock.unlock() }
    return head
  }

  /// The queue is full: apply the policy.
  @inline(never)
  final func overflow(_ element: consuming Element) {
    switch policy {
    case .dropNewest:
      reportDropped(element)
    case .dropOldest, .keepLatest:
      headLock.lock()
      let n = taken.load(ordering: .relaxed)
      var oldest: Event<Element>? = nil
      // The drain may have made room since the producer looked.
      if published.load(ordering: .relaxed) &- n >= capacity {
        oldest = head.pop(pool: pool)
        taken.store(n &+ 1, ordering: .releasing)
      }
      headLock.unlock()
      takenSeen = n &+ (oldest == nil ? 0 : 1)
      if case .next(let dropped)? = consume oldest { reportDropped(dropped) }
      tail.push(.next(element), pool: pool)
      published(1)
    case .fail:
      failOverflow(element)
    case .block(let timeoutNanos):
      let start = MonotonicClock.now()
      let deadline = timeoutNanos > Int64.max &- start ? Int64.max : start &+ timeoutNanos
      var spins = 0
      while true {
        // Disposed: nobody listens any more; the value is released unreported, as queued ones are.
        if isDisposed { return }
        takenSeen = taken.load(ordering: .acquiring)
        if published.load(ordering: .relaxed) &- takenSeen < capacity { break }
        if MonotonicClock.now() >= deadline { return failOverflow(element) }
        spins &+= 1
        if spins < 64 { sched_yield() } else { usleep(20) }
      }
      tail.push(.next(element), pool: pool)
      published(1)
    }
  }

  final func reportDropped(_ element: consuming Element) {
    counters._withUnsafeGuaranteedRef { _ = $0.dropped.wrappingAdd(1, ordering: .relaxed) }
    onDropped?(element)
  }

  /// Drops `element`, queues the overflow error behind what is queued, disposes upstream.
  final func failOverflow(_ element: consuming Element) {
    stopped = true
    SynchronousStop.noteStop()
    counters._withUnsafeGuaranteedRef { _ = $0.overflows.wrappingAdd(1, ordering: .relaxed) }
    reportDropped(element)
    tail.push(.error(RxError.overflow), pool: pool)
    published(1)
    upstream?.dispose()
  }
}

/// observe_on with a bounded queue (see `FlowPolicy`); `counters` sums its subscriptions.
@_spi(RxC) public class BoundedObserveOn<Element>: ObserveOn<Element> {
  public let counters: FlowCounters

  init(source: Observable<Element>, scheduler: Scheduler, counters: FlowCounters,
              makeSink: @escaping SinkFactory)
  {
    self.counters = counters
    super.init(source: source, scheduler: scheduler, makeSink: makeSink)
  }
}

extension ObservableType {
  /// Delivers on `scheduler` through a queue of at most `capacity` values (`policy` says
  /// what a value that finds it full does). `onDropped` runs on the producer's thread for
  /// each value the policy drops.
  public func observe(on scheduler: Scheduler, capacity: Int, policy: FlowPolicy,
                      onDropped: ((Element) -> Void)? = nil) -> Observable<Element>
  {
    let counters = FlowCounters()
    return BoundedObserveOn(source: asObservable(), scheduler: scheduler, counters: counters) {
      ObserveOnSink(observer: $0, cancel: $1, scheduler: $2,
                    limit: FlowLimit(policy: policy, capacity: capacity, counters: counters), onDropped: onDropped)
    }
  }
}

extension Observable where Element == Value {
  public func observe(on scheduler: Scheduler, capacity: Int, policy: FlowPolicy,
                      onDropped: ((Value) -> Void)? = nil) -> Observable<Value>
  {
    ValueBoundedObserveOnProducer(source: self, scheduler: scheduler, capacity: capacity, policy: policy,
                                  onDropped: onDropped)
  }
}

// rx:hand-leaf: hands the generic init a factory of its leaf sink, not the generic body.
// Specialized for Value (see Value): the sinks are ObserveOn's leaf.
final class ValueBoundedObserveOnProducer: BoundedObserveOn<Value> {
  init(source: Observable<Value>, scheduler: Scheduler, capacity: Int, policy: FlowPolicy,
       onDropped: ((Value) -> Void)?)
  {
    let counters = FlowCounters()
    super.init(source: source, scheduler: scheduler, counters: counters) {
      ValueObserveOnSink(observer: $0, cancel: $1, scheduler: $2,
                         limit: FlowLimit(policy: policy, capacity: capacity, counters: counters),
                         onDropped: onDropped)
    }
  }

  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    super.run(observer, cancel: cancel)
  }
}
