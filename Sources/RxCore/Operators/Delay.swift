/// Shifts every event by `dueTime` on `scheduler` (an error is delivered at once, dropping
/// what is still delayed, as RxSwift does). Each event is stamped with the scheduler's time
/// when it arrives and delivered once that time + dueTime has come; one timer is pending at
/// a time. Events and timer ticks go through a Drain, so the state is touched by one thread
/// at a time and downstream calls never overlap, without holding a lock over them; a tick
/// that fires early is queued behind the handler that armed it, so a plain `timer.set` is
/// safe in handlers.
public class Delay<Element>: Producer<Element> {
  let source: Observable<Element>
  let dueTime: Int64
  let scheduler: Scheduler

  public init(source: Observable<Element>, dueTime: Int64, scheduler: Scheduler) {
    self.source = source
    self.dueTime = Swift.max(0, dueTime)
    self.scheduler = scheduler
  }

  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = DelaySink(observer: observer, cancel: cancel, dueTime: dueTime, scheduler: scheduler)
    let subscription = source.subscribe(sink)
    return (sink, BinaryDisposable(subscription, sink.timer))
  }
}

class DelaySink<Element>: Sink<Element, Element> {
  enum Input { case event(Event<Element>, Int64), tick }
  let dueTime: Int64
  let scheduler: Scheduler
  let timer = SerialDisposable()
  private let drain = Drain<Input>()
  private var queue = RingBuffer<(time: Int64, event: Event<Element>)>()
  private var timerActive = false

  init(observer: Observer<Element>, cancel: any Cancelable, dueTime: Int64, scheduler: Scheduler) {
    self.dueTime = dueTime
    self.scheduler = scheduler
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) { submit(.event(event, scheduler.now)) }

  private final func submit(_ input: Input) { drain.submit(input) { self.handle($0) } }

  func handle(_ input: Input) {
    if isDisposed { return }
    switch input {
    case .event(.error(let error), _):
      queue.removeAll()
      forwardTerminal(.error(error))
    case .event(let event, let time):
      queue.append((time, event))
      if !timerActive {
        timerActive = true
        arm(delay: time + dueTime - scheduler.now)
      }
    case .tick:
      let now = scheduler.now
      while let head = queue.first, head.time + dueTime <= now {
        _ = queue.popFirst()
        if head.event.isStopEvent {
          forwardTerminal(head.event)
          return
        }
        forwardOn(head.event)
        if isDisposed { return }
      }
      if let head = queue.first {
        arm(delay: head.time + dueTime - now)
      } else {
        timerActive = false
      }
    }
  }

  private final func arm(delay: Int64) {
    timer.set(scheduler.scheduleAfter(delay) { self.submit(.tick) })
  }
}

extension ObservableType {
  public func delay(_ dueTime: Int64, scheduler: Scheduler) -> Observable<Element> {
    Delay(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
  }
}

extension Observable where Element == Value {
  public func delay(_ dueTime: Int64, scheduler: Scheduler) -> Observable<Value> {
    ValueDelayProducer(source: self, dueTime: dueTime, scheduler: scheduler)
  }
}

// Specialized for Value (see Value): the overrides inline the generic bodies, and the timer
// callbacks they create are specialized with them.
final class ValueDelayProducer: Delay<Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueDelaySink(observer: observer, cancel: cancel, dueTime: dueTime, scheduler: scheduler)
    let subscription = source.subscribe(sink)
    return (sink, BinaryDisposable(subscription, sink.timer))
  }
}

final class ValueDelaySink: DelaySink<Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
  override func handle(_ input: Input) { super.handle(input) }
}
