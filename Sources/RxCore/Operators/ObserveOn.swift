// Over 400 lines: the producer, the sink and its drain share the hand-off queue's protocol, and
// the sink's hand-written Value leaf must sit beside the body it overrides.
import CRxcCore
import Glibc
import Synchronization

/// Delivers the source's events on `scheduler`, in order.
///
/// Events go into a single-producer single-consumer queue (the source's events arrive
/// serialized; the drain is the one consumer): no lock, and no allocation once its chunks
/// are warm. The producer counts what it pushed in `published` (a plain store). `wip` counts
/// the producer's wake-up signals: only the signal that moves it from 0 schedules a drain,
/// so one drain loop runs at a time; the drain delivers everything published, then gives
/// back the signals it has seen (one atomic per batch) and stops when `wip` reaches 0.
/// A serial queue drains until the queue is empty (the cheap path, scheduled through the
/// scheduler's allocation-free trigger); on a concurrent scheduler, and on main (the UI
/// thread: timers and other work must interleave), the drain hands its thread back after a
/// batch and reschedules itself behind whatever else is queued.
///
/// Streaming: once a drain on a serial queue has delivered `streamAfter` events in a row, it
/// tells the producer (`streaming`) that it will see every published event without a
/// signal, so the producer stops making its `lock xadd` per event (which also waited for
/// the queue's cache lines to come over from the consumer's core). Before it can stop, the
/// drain clears `streaming` and runs a process barrier: every event published before that
/// is then visible to it, and every later one sees `streaming` clear and signals. The
/// barrier costs about 15 µs when the producer's core is busy, hence only after a long burst.
///
/// Disposing stops delivery before the next event; the terminal event is queued behind
/// every value.
///
/// Bounded (see ObserveOnBounded.swift): the same queue holds at most `capacity` values; a
/// bounded sink's drain takes from the head under `headLock`, since an overflowing producer
/// may take the oldest element from there too.
@_spi(RxC) public class ObserveOn<Element>: Producer<Element> {
  typealias SinkFactory = (Observer<Element>, any Cancelable, Scheduler) -> ObserveOnSink<Element>
  let source: Observable<Element>
  let scheduler: Scheduler
  let makeSink: SinkFactory

  /// `makeSink` lets a caller that knows `Element` supply a concrete subclass, whose
  /// overrides (forwarding to `super`) are specialized code: a generic class's own vtable
  /// entries never are, and would look up generic metadata on every event.
  init(source: Observable<Element>, scheduler: Scheduler,
              makeSink: @escaping SinkFactory = { ObserveOnSink(observer: $0, cancel: $1, scheduler: $2) })
  {
    self.source = source
    self.scheduler = scheduler
    self.makeSink = makeSink
  }

  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = makeSink(observer, cancel, scheduler)
    let subscription = source.subscribe(sink)
    if let upstream = sink.upstream {  // the overflow policy `fail` disposes upstream from `on`
      upstream.setDisposable(subscription)
      let both = BinaryDisposable(upstream, sink.scheduled)
      return (consume sink, both)
    }
    let both = BinaryDisposable(subscription, sink.scheduled)
    return (consume sink, both)
  }
}

class ObserveOnSink<Element>: Sink<Element, Element> {
  typealias Queue = HandoffQueue<Event<Element>>
  static var batch: Int { 1024 }
  let scheduler: Scheduler
  let batching: Bool
  public let scheduled = SerialDisposable()
  /// Schedules `drainLoop` without allocating, when the scheduler can (`makeTrigger`).
  final let trigger: SchedulerTrigger?
  /// The same, unretained: a strong reference, even a `let`'s, is retained around the call.
  final let fireable: Unmanaged<SchedulerTrigger>?
  final let drainAction = ObserveOnDrain<Element>()
  final var lingers = false
  /// When the last drain started (drains only, on the trigger path).
  final var lastDrain: Int64 = 0
  let pool = Queue.Pool()
  /// Bounded sinks (set once, read by both sides): the limit on queued values, what a value
  /// that finds the queue full does, the counters (kept alive by `flow`; unbounded sinks
  /// point at a spare set), and the upstream subscription the policy `fail` disposes.
  final let bounded: Bool
  final let capacity: Int
  final let policy: FlowPolicy
  final let counters: Unmanaged<FlowCounters>
  final let flow: FlowCounters?
  /// Told of every value the policy drops (producer's thread).
  final let onDropped: ((Element) -> Void)?
  public final let upstream: SingleAssignmentDisposable?
  /// Set (plain stores) only by a drain, read by the producer on every event: see the type's
  /// comment. False for good without a real process barrier.
  let streaming = Atomic<Bool>(false)
  final var mayStream = false
  /// How often a drain started and stopped streaming (drain-owned; for tests and tuning).
  final var streamsStarted = 0, streamsStopped = 0
  /// Tests: runs on the drain right before it stops streaming (a producer's event sent from
  /// here is one the drain must not strand).
  final var beforeStreamingStops: (() -> Void)?
  /// The consumer's end: only a drain touches it (through a local copy, stored back before
  /// the drain gives up its turn), with the count of events it has taken.
  final var head: Queue.Head
  final var consumed = 0
  /// Bounded sinks: elements taken from the queue (delivered, or dropped as the oldest), and
  /// the lock both sides take `head` under.
  let taken = Atomic<Int>(0)
  let headLock = SpinLock()
  /// Bounded sinks, drain only: the last `published` it read. It reads `published` again only
  /// once it has taken that many, so a drain that keeps up does not pull the producer's cache
  /// line over per event.
  final var publishedSeen = 0
  /// Values this drain delivered since it last added them to the counters (once per batch,
  /// not per event).
  final var deliveredSinceFlush: UInt64 = 0
  // The producer writes `tail`, `published` and `wip` on every event and the drain reads the
  // fields above on every event: 64 bytes apart, they never share a cache line.
  let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
  /// The producer's end: only `on` touches it.
  final var tail: Queue.Tail
  /// Bounded sinks, producer only: the last `taken` it read (it reads `taken` only when this
  /// says full, so an unsaturated producer shares no cache line with the drain per event),
  /// and whether the stream has ended upstream.
  final var takenSeen = 0
  final var stopped = false
  /// Events pushed so far; written only by the producer, after the push (release).
  let published = Atomic<Int>(0)
  let wip = Atomic<Int>(0)

  public init(observer: Observer<Element>, cancel: any Cancelable, scheduler: Scheduler,
              limit: FlowLimit? = nil, onDropped: ((Element) -> Void)? = nil)
  {
    self.scheduler = scheduler
    self.bounded = limit != nil
    self.capacity = limit?.capacity ?? Int.max
    self.policy = limit?.policy ?? .dropNewest
    self.flow = limit?.counters
    self.counters = Unmanaged.passUnretained(limit?.counters ?? unboundedCounters)
    self.upstream = limit == nil ? nil : SingleAssignmentDisposable()
    self.onDropped = onDropped
    // Immediate and trampoline schedulers run on the caller's thread: nothing to hand back.
    self.batching = scheduler.supportsPeriodic && (!scheduler.isSerial || scheduler is RunLoopScheduler)
    (head, tail) = Queue.make()
    trigger = scheduler.makeTrigger(drainAction)
    fireable = trigger.map { Unmanaged.passUnretained($0) }
    super.init(observer: observer, cancel: cancel)
    drainAction.sink = Unmanaged.passUnretained(self)
    // A scheduler that runs on the caller's thread (immediate, trampoline) has no producer
    // to wait for.
    lingers = trigger != nil && scheduler.supportsPeriodic
    mayStream = lingers && !batching && AsymmetricFence.heavySideExists
  }

  // Nothing else can touch either end now. (@inline(never), not @_optimize(none): see
  // Sink's deinit; a concrete subclass's deinit then runs this body specialized.)
  @inline(never) deinit { Queue.destroy(head: head, tail: tail, pool: pool) }

  open override func on(_ event: Event<Element>) {
    if isDisposed { return }
    if bounded { return gatedOn(event) }
    tail.push(event, pool: pool)
    published(1)
  }

  /// Disposed, failed by an overflow, or nobody downstream wants more events.
  open override var wantsNoMoreEvents: Bool {
    if bounded && stopped { return true }
    return isDisposed || observer.wantsNoMoreEvents
  }

  /// A subject's hot path. Without this override the base class's generic default would
  /// build the `Event` through runtime metadata lookups on every event (~250 Ir).
  open override func onNext(at element: UnsafePointer<Element>) {
    pushNext(element.pointee)
  }

  /// `onNext(at:)`'s body, for a subclass that copies its elements more cheaply itself.
  @inline(__always)
  public final func pushNext(_ element: consuming Element) {
    if isDisposed { return }
    if bounded { return gatedNext(element) }
    // The common case makes no call but a tail call: no frame, no registers saved.
    if tail.index == tail.end { return pushNextIntoNewChunk(element) }
    (Queue.slots(tail.chunk) + tail.index).initialize(to: .next(element))
    tail.index &+= 1
    published(1)
  }

  @inline(never)
  final func pushNextIntoNewChunk(_ element: consuming Element) {
    tail.push(.next(element), pool: pool)
    published(1)
  }

  /// A replay subject's run: pushed together, published with one atomic.
  open override func onNext(contentsOf elements: UnsafeBufferPointer<Element>) {
    if isDisposed || elements.isEmpty { return }
    if bounded {
      for element in elements { gatedNext(element) }
      return
    }
    for element in elements { tail.push(.next(element), pool: pool) }
    published(elements.count)
  }

  /// Publishes `count` pushed events; unless a streaming drain will see them, signals
  /// `wip`, and the signal that finds it at 0 starts a drain.
  @inline(__always)
  final func published(_ count: Int) {
    published.store(published.load(ordering: .relaxed) &+ count, ordering: .releasing)
    // The store may still pass the load below in the CPU: the drain's barrier covers that.
    AsymmetricFence.lightSide()
    if streaming.load(ordering: .relaxed) { return }
    if wip.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 { return scheduleDrain() }
  }

  /// A drain on its own thread (the trigger path) that has caught up with a burst waits up
  /// to this long for more events before it gives up its turn: the next drain would cost
  /// the producer a wakeup (a futex syscall and Dispatch's queue item, a few microseconds),
  /// and a busy producer's next event is usually much closer than this. It yields while it
  /// waits, so a producer on the same core gets to run.
  static var lingerNanos: Int64 { 5_000 }
  /// A drain lingers once it has delivered this many events, or from the start when the
  /// previous drain started less than `busyGap` ns before it (a steady stream that comes
  /// too slowly to fill a burst still wakes the drain often); sporadic events never make it
  /// wait.
  static var burst: Int { 32 }
  static var busyGap: Int64 { 50_000 }

  /// A lingering drain waits for this many new events (or the deadline) before it takes
  /// the next batch: taking one or two at a time would move `wip`'s cache line and the
  /// half-written slot lines between the cores on nearly every event.
  static var gather: Int { 64 }

  /// A drain streams after this many events in a row: the barrier that ends streaming is
  /// then at most a few ns per event.
  static var streamAfter: Int { 4096 }

  /// Waits until `gather` more events than `consumed` are published or the linger time is
  /// up; says whether any came.
  final func linger(consumed: Int) -> Bool {
    let deadline = MonotonicClock.now() &+ Self.lingerNanos
    while published.load(ordering: .relaxed) &- consumed < Self.gather {
      if MonotonicClock.now() >= deadline { break }
      sched_yield()
    }
    return published.load(ordering: .relaxed) != consumed
  }

  /// Ends streaming: after the barrier every event published while the producer saw
  /// `streaming` set is visible here, and every later one signals `wip`.
  final func stopStreaming() {
    beforeStreamingStops?()
    streaming.store(false, ordering: .relaxed)
    AsymmetricFence.heavySide()
    streamsStopped &+= 1
  }

  public final func scheduleDrain() {
    if let fireable {
      _ = Unmanaged.passUnretained(self).retain()
      fireable._withUnsafeGuaranteedRef { $0.fire() }
    } else {
      scheduled.setScheduled { scheduler.schedule { [self] in drainLoop() } }
    }
  }

  /// Delivers every published event, in batches of what it has seen, then gives back the
  /// `wip` signals it has seen; stops when that leaves 0. Every signal's event was published
  /// before it, so the events of the signals given back have all been delivered. A drain
  /// that stops early (disposed, terminal) leaves wip above zero so no other drain can
  /// start; what it leaves queued goes with the sink. Open so that a concrete subclass runs
  /// specialized code (see ObserveOn.init).
  open func drainLoop() {
    var head = headForDrain()
    var consumed = self.consumed
    var signals = wip.load(ordering: .acquiring)
    var budget = batching ? Self.batch : Int.max
    var delivered = 0
    var busy = false
    if lingers {
      let now = MonotonicClock.now()
      busy = now &- lastDrain < Self.busyGap
      lastDrain = now
    }
    let gated = bounded
    if gated { consumed = taken.load(ordering: .relaxed) }
    while true {
      var count = Swift.min(published.load(ordering: .acquiring) &- consumed, budget)
      for i in 0..<count {
        if isDisposed {
          if gated { flushDelivered() } else { self.head = head }
          return
        }
        let event: Event<Element>
        if gated {
          // The producer may have dropped the oldest meanwhile: what is left is fewer.
          guard let taken = gatedPop() else {
            count = i
            break
          }
          event = taken
        } else {
          event = head.pop(pool: pool)
        }
        switch consume event {  // consumed: the element is taken, not copied
        case .next(let element):
          if forwardsByPointer {  // Sink's: the observer takes `.next` by pointer
            _withUnprotectedUnsafePointer(to: element) { observer.onNext(at: $0) }
          } else {
            forwardOn(.next(element))
          }
        case let stop:
          if gated { flushDelivered() } else { self.head = head }
          forwardTerminal(stop)
          return
        }
      }
      // Stored before wip can reach 0: the next drain may start on another thread.
      if gated {
        consumed = taken.load(ordering: .relaxed)
        flushDelivered()
      } else {
        self.head = head
        consumed &+= count
      }
      self.consumed = consumed
      delivered &+= count
      budget &-= count
      if budget == 0 {
        scheduleDrain()
        return
      }
      if streaming.load(ordering: .relaxed) {
        if linger(consumed: consumed) { continue }
        stopStreaming()
        delivered = 0  // another long run before streaming again: the barrier is dear
        continue  // what was published before the barrier, then the signals
      }
      if mayStream && delivered >= Self.streamAfter {
        streaming.store(true, ordering: .relaxed)
        streamsStarted &+= 1
        continue
      }
      if count > 0 && (busy || (lingers && delivered >= Self.burst)) && linger(consumed: consumed) { continue }
      signals = wip.wrappingSubtract(signals, ordering: .acquiringAndReleasing).newValue
      if signals == 0 {
        rxc_queue_drained()  // empty: a backlog's freed chunks go back to the system
        return
      }
    }
  }
}

/// A sink's `drainLoop` as a trigger's action. The pending run holds a reference to the
/// sink (taken in `scheduleDrain`, given back here), so this one need not.
final class ObserveOnDrain<Element>: TriggeredAction {
  /// Set once, right after the sink's init. Unmanaged: an unowned(unsafe) reference is
  /// retained around a call all the same.
  var sink: Unmanaged<ObserveOnSink<Element>>?

  override init() {}

  override func run() {
    let sink = sink.unsafelyUnwrapped
    sink._withUnsafeGuaranteedRef { $0.drainLoop() }
    sink.release()
  }
}

extension ObservableType {
  public func observe(on scheduler: Scheduler) -> Observable<Element> {
    ObserveOn(source: asObservable(), scheduler: scheduler)
  }
}

extension Observable where Element == Value {
  public func observe(on scheduler: Scheduler) -> Observable<Value> {
    ValueObserveOnProducer(source: self, scheduler: scheduler)
  }
}

// rx:hand-leaf: hands the generic init a factory of its leaf sink, not the generic body.
// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueObserveOnProducer: ObserveOn<Value> {
  init(source: Observable<Value>, scheduler: Scheduler) {
    super.init(source: source, scheduler: scheduler) { ValueObserveOnSink(observer: $0, cancel: $1, scheduler: $2) }
  }

  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    super.run(observer, cancel: cancel)
  }
}

// rx:hand-leaf: overrides two `onNext` forms (by pointer, and a run of elements), which `super=` (by name) cannot tell apart.
final class ValueObserveOnSink: ObserveOnSink<Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
  override func onNext(at element: UnsafePointer<Value>) { pushNext(Value.copy(at: element)) }
  override var takesNextByPointer: Bool { true }
  override func onNext(contentsOf elements: UnsafeBufferPointer<Value>) { super.onNext(contentsOf: elements) }
  override func drainLoop() { super.drainLoop() }
}
