/// Fails with `RxError.timeout` if the first value does not arrive within `dueTime` of the
/// subscription, or the next one within `dueTime` of its predecessor (RxSwift's timeout).
/// Events and timer ticks are serialized through a Drain (see Delay).
public class Timeout<Element>: Producer<Element> {
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
    let sink = TimeoutSink(observer: observer, cancel: cancel, dueTime: dueTime, scheduler: scheduler)
    sink.armTimer(0)
    let subscription = source.subscribe(sink)
    return (sink, BinaryDisposable(subscription, sink.timer))
  }
}

class TimeoutSink<Element>: Sink<Element, Element> {
  enum Input { case event(Event<Element>), tick(UInt64) }
  let dueTime: Int64
  let scheduler: Scheduler
  let timer = SerialDisposable()
  private let drain = Drain<Input>()
  private var id: UInt64 = 0

  init(observer: Observer<Element>, cancel: any Cancelable, dueTime: Int64, scheduler: Scheduler) {
    self.dueTime = dueTime
    self.scheduler = scheduler
    super.init(observer: observer, cancel: cancel)
  }

  final func armTimer(_ current: UInt64) {
    timer.set(scheduler.scheduleAfter(dueTime) { self.submit(.tick(current)) })
  }

  override func on(_ event: Event<Element>) { submit(.event(event)) }

  private final func submit(_ input: Input) { drain.submit(input) { self.handle($0) } }

  func handle(_ input: Input) {
    if isDisposed { return }
    switch input {
    case .event(.next(let element)):
      id &+= 1
      forwardOn(.next(element))
      armTimer(id)
    case .event(let stop):
      id &+= 1
      forwardTerminal(stop)
    case .tick(let current):
      if current == id { forwardTerminal(.error(RxError.timeout)) }
    }
  }
}

extension ObservableType {
  public func timeout(_ dueTime: Int64, scheduler: Scheduler) -> Observable<Element> {
    Timeout(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
  }
}

extension Observable where Element == Value {
  public func timeout(_ dueTime: Int64, scheduler: Scheduler) -> Observable<Value> {
    ValueTimeoutProducer(source: self, dueTime: dueTime, scheduler: scheduler)
  }
}

// Specialized for Value (see Value): the overrides inline the generic bodies, and the timer
// callbacks they create are specialized with them.
final class ValueTimeoutProducer: Timeout<Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueTimeoutSink(observer: observer, cancel: cancel, dueTime: dueTime, scheduler: scheduler)
    sink.armTimer(0)
    let subscription = source.subscribe(sink)
    return (sink, BinaryDisposable(subscription, sink.timer))
  }
}

final class ValueTimeoutSink: TimeoutSink<Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
  override func handle(_ input: Input) { super.handle(input) }
}
