import Synchronization

/// Delivers the source's events on `scheduler`, in order.
///
/// Events go into a ring buffer (reused: no allocation per event once warm); `wip` counts
/// those not yet delivered, and only the event that moves it from 0 schedules a drain, so
/// one drain loop runs at a time and it is scheduled once per burst, not per event. A serial
/// queue drains until the queue is empty (the cheap path); on a concurrent scheduler, and on
/// main (the UI thread: timers and other work must interleave), the drain hands its thread
/// back after a batch and reschedules itself behind whatever else is queued.
/// Disposing stops delivery before the next event; the terminal event is queued behind
/// every value.
public final class ObserveOn<Element>: Producer<Element> {
  let source: Observable<Element>
  let scheduler: Scheduler

  public init(source: Observable<Element>, scheduler: Scheduler) {
    self.source = source
    self.scheduler = scheduler
  }

  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ObserveOnSink(observer: observer, cancel: cancel, scheduler: scheduler)
    let subscription = source.subscribe(sink)
    return (sink, BinaryDisposable(subscription, sink.scheduled))
  }
}

final class ObserveOnSink<Element>: Sink<Element, Element> {
  private static var batch: Int { 1024 }
  let scheduler: Scheduler
  let batching: Bool
  let scheduled = SerialDisposable()
  private let queue = Mutex(RingBuffer<Event<Element>>())
  private let wip = Atomic<Int>(0)

  init(observer: Observer<Element>, cancel: any Cancelable, scheduler: Scheduler) {
    self.scheduler = scheduler
    // Immediate and trampoline schedulers run on the caller's thread: nothing to hand back.
    self.batching = scheduler.supportsPeriodic && (!scheduler.isSerial || scheduler is MainScheduler)
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) {
    if isDisposed { return }
    queue.withLock { $0.append(event) }
    if wip.add(1, ordering: .acquiringAndReleasing).oldValue == 0 { scheduleDrain() }
  }

  private func scheduleDrain() {
    scheduled.setScheduled { scheduler.schedule { [self] in drainLoop() } }
  }

  /// wip > 0 guarantees the queue holds an event (on() appends before it increments), and a
  /// drain that stops early (disposed, terminal, batch) leaves wip above zero so no other
  /// drain can start.
  private func drainLoop() {
    var delivered = 0
    while true {
      if isDisposed {
        queue.withLock { $0.removeAll() }
        return
      }
      guard let event = queue.withLock({ $0.popFirst() }) else { return }
      if event.isStopEvent {
        forwardTerminal(event)
        queue.withLock { $0.removeAll() }
        return
      }
      forwardOn(event)
      if wip.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { return }
      delivered += 1
      if batching && delivered >= Self.batch {
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
