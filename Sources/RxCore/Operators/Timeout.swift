/// Fails with `RxError.timeout` if the first value does not arrive within `dueTime` of the
/// subscription, or the next one within `dueTime` of its predecessor (RxSwift's timeout).
/// Ticks carry the number of values seen when they were armed; a later value makes them stale.
public class Timeout<Element>: TimedProducer<Element> {
  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    TimeoutSink(observer: observer, cancel: cancel, parameters: timing).start(source)
  }
}

class TimeoutSink<Element>: TimedSink<Timing, Element, Element, TimedInput<Element, UInt64>> {
  private var id: UInt64 = 0

  /// Arms the first timer, then subscribes.
  final func start(_ source: Observable<Element>) -> (sink: any Disposable, subscription: any Disposable) {
    schedule(0, after: parameters.dueTime, on: parameters.scheduler)
    return run(source)
  }

  override func on(_ event: Event<Element>) { submit(.event(event)) }

  override func handle(_ input: TimedInput<Element, UInt64>) {
    switch input {
    case .event(.next(let element)):
      id &+= 1
      forwardOn(.next(element))
      schedule(id, after: parameters.dueTime, on: parameters.scheduler)
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
    ValueTimeoutSink(observer: observer, cancel: cancel, parameters: timing).start(source)
  }
}

final class ValueTimeoutSink: TimeoutSink<Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
  override func handle(_ input: TimedInput<Value, UInt64>) { super.handle(input) }
}
