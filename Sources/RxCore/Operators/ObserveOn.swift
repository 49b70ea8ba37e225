import Glibc
import Synchronization

/// Delivers the source's events on `scheduler`, in order.
///
/// Events go into a single-producer single-consumer queue (the source's events arrive
/// serialized; the drain is the one consumer): no lock, and no allocation once its chunks
/// are warm. `wip` counts events not yet delivered: the producer's one atomic per event, and
/// only the event that moves it from 0 schedules a drain, so one drain loop runs at a time.
/// The drain delivers every event it knows of before it touches `wip` again (one atomic per
/// batch) and stops when `wip` reaches 0. A serial queue drains until the queue is empty
/// (the cheap path, scheduled through the scheduler's allocation-free trigger); on a
/// concurrent scheduler, and on main (the UI thread: timers and other work must
/// interleave), the drain hands its thread back after a batch and reschedules itself behind
/// whatever else is queued.
/// Disposing stops delivery before the next event; the terminal event is queued behind
/// every value.
public final class ObserveOn<Element>: Producer<Element> {
  public typealias SinkFactory = (Observer<Element>, any Cancelable, Scheduler) -> ObserveOnSink<Element>
  let source: Observable<Element>
  let scheduler: Scheduler
  let makeSink: SinkFactory

  /// `makeSink` lets a caller that knows `Element` supply a concrete subclass, whose
  /// overrides (forwarding to `super`) are specialized code: a generic class's own vtable
  /// entries never are, and would look up generic metadata on every event.
  public init(source: Observable<Element>, scheduler: Scheduler,
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
    return (sink, BinaryDisposable(subscription, sink.scheduled))
  }
}

open class ObserveOnSink<Element>: Sink<Element, Element> {
  @usableFromInline typealias Queue = HandoffQueue<Event<Element>>
  @usableFromInline static var batch: Int { 1024 }
  @usableFromInline let scheduler: Scheduler
  @usableFromInline let batching: Bool
  public let scheduled = SerialDisposable()
  /// Schedules `drainLoop` without allocating, when the scheduler can (`makeTrigger`).
  @usableFromInline final var trigger: (() -> Void)?
  @usableFromInline final var lingers = false
  /// When the last drain started (drains only, on the trigger path).
  @usableFromInline final var lastDrain: Int64 = 0
  @usableFromInline let pool = Queue.Pool()
  /// The consumer's end: only a drain touches it (through a local copy, stored back before
  /// the drain gives up its turn).
  @usableFromInline final var head: Queue.Head
  // The producer writes `tail` and `wip` on every event and the drain reads the fields above
  // on every event: 64 bytes apart, they never share a cache line.
  @usableFromInline let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
  /// The producer's end: only `on` touches it.
  @usableFromInline final var tail: Queue.Tail
  @usableFromInline let wip = Atomic<Int>(0)

  public init(observer: Observer<Element>, cancel: any Cancelable, scheduler: Scheduler) {
    self.scheduler = scheduler
    // Immediate and trampoline schedulers run on the caller's thread: nothing to hand back.
    self.batching = scheduler.supportsPeriodic && (!scheduler.isSerial || scheduler is MainScheduler)
    (head, tail) = Queue.make()
    super.init(observer: observer, cancel: cancel)
    // The pending run holds a reference (taken in scheduleDrain), so the trigger need not.
    trigger = scheduler.makeTrigger { [unowned(unsafe) self] in
      self.drainLoop()
      Unmanaged.passUnretained(self).release()
    }
    lingers = trigger != nil
  }

  // Nothing else can touch either end now. (@_optimize(none): see Sink's deinit.)
  @_optimize(none) deinit { Queue.destroy(head: head, tail: tail, pool: pool) }

  @inlinable
  open override func on(_ event: Event<Element>) {
    if isDisposed { return }
    tail.push(event, pool: pool)
    published(1)
  }

  /// A subject's hot path. Without this override the base class's generic default would
  /// build the `Event` through runtime metadata lookups on every event (~250 Ir).
  @inlinable
  open override func onNext(at element: UnsafePointer<Element>) {
    if isDisposed { return }
    tail.push(.next(element.pointee), pool: pool)
    published(1)
  }

  /// A replay subject's run: pushed together, published with one atomic.
  @inlinable
  open override func onNext(contentsOf elements: UnsafeBufferPointer<Element>) {
    if isDisposed || elements.isEmpty { return }
    for element in elements { tail.push(.next(element), pool: pool) }
    published(elements.count)
  }

  /// Counts `count` pushed events into `wip`; the push that finds it at 0 starts a drain.
  @inlinable @inline(__always)
  final func published(_ count: Int) {
    if wip.wrappingAdd(count, ordering: .acquiringAndReleasing).oldValue == 0 { scheduleDrain() }
  }

  /// A drain on its own thread (the trigger path) that has caught up with a burst waits up
  /// to this long for more events before it gives up its turn: the next drain would cost
  /// the producer a wakeup (a futex syscall and Dispatch's queue item, a few microseconds),
  /// and a busy producer's next event is usually much closer than this. It yields while it
  /// waits, so a producer on the same core gets to run.
  @usableFromInline static var lingerNanos: Int64 { 5_000 }
  /// A drain lingers once it has delivered this many events, or from the start when the
  /// previous drain started less than `busyGap` ns before it (a steady stream that comes
  /// too slowly to fill a burst still wakes the drain often); sporadic events never make it
  /// wait.
  @usableFromInline static var burst: Int { 32 }
  @usableFromInline static var busyGap: Int64 { 50_000 }

  /// A lingering drain waits for this many new events (or the deadline) before it takes
  /// the next batch: taking one or two at a time would move `wip`'s cache line and the
  /// half-written slot lines between the cores on nearly every event.
  @usableFromInline static var gather: Int { 64 }

  @inlinable
  final func linger(seen: Int) {
    let deadline = MonotonicClock.now() &+ Self.lingerNanos
    while wip.load(ordering: .relaxed) &- seen < Self.gather {
      if MonotonicClock.now() >= deadline { return }
      sched_yield()
    }
  }

  @inlinable
  public final func scheduleDrain() {
    if let trigger {
      _ = Unmanaged.passUnretained(self).retain()
      trigger()
    } else {
      scheduled.setScheduled { scheduler.schedule { [self] in drainLoop() } }
    }
  }

  /// Delivers the events `wip` counts, in batches of what it has seen. wip > 0 guarantees
  /// the queue holds that many events (on() pushes before it increments), and a drain that
  /// stops early (disposed, terminal) leaves wip above zero so no other drain can start;
  /// what it leaves queued goes with the sink. Open so that a concrete subclass runs
  /// specialized code (see ObserveOn.init).
  @inlinable
  open func drainLoop() {
    var head = self.head
    var known = wip.load(ordering: .acquiring)
    var budget = batching ? Self.batch : Int.max
    var delivered = 0
    var busy = false
    if lingers {
      let now = MonotonicClock.now()
      busy = now &- lastDrain < Self.busyGap
      lastDrain = now
    }
    while true {
      let count = Swift.min(known, budget)
      for _ in 0..<count {
        if isDisposed {
          self.head = head
          return
        }
        let event = head.pop(pool: pool)
        if event.isStopEvent {
          self.head = head
          forwardTerminal(event)
          return
        }
        forwardOn(event)
      }
      // Stored before wip can reach 0: the next drain may start on another thread.
      self.head = head
      delivered += count
      if busy || (lingers && delivered >= Self.burst) { linger(seen: count) }
      known = wip.wrappingSubtract(count, ordering: .acquiringAndReleasing).newValue
      if known == 0 { return }
      budget -= count
      if budget == 0 {
        scheduleDrain()
        return
      }
    }
  }
}

extension ObservableType {
  public func observe(on scheduler: Scheduler) -> Observable<Element> {
    ObserveOn(source: asObservable(), scheduler: scheduler)
  }
}
