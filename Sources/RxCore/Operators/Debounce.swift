/// Emits a value only after `dueTime` has passed without another one (RxSwift's debounce);
/// completion first flushes the pending value. Events and timer ticks are serialized
/// through a Drain (see Delay).
public class Debounce<Element>: Producer<Element> {
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
    let sink = DebounceSink(observer: observer, cancel: cancel, dueTime: dueTime, scheduler: scheduler)
    let subscription = source.subscribe(sink)
    return (sink, BinaryDisposable(subscription, sink.timer))
  }
}

class DebounceSink<Element>: Sink<Element, Element> {
  enum Input { case event(Event<Element>), tick(UInt64) }
  let dueTime: Int64
  let scheduler: Scheduler
  let timer = SerialDisposable()
  private let drain = Drain<Input>()
  private var id: UInt64 = 0
  private var value: Element?

  init(observer: Observer<Element>, cancel: any Cancelable, dueTime: Int64, scheduler: Scheduler) {
    self.dueTime = dueTime
    self.scheduler = scheduler
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) { submit(.event(event)) }

  private final func submit(_ input: Input) { drain.submit(input) { self.handle($0) } }

  func handle(_ input: Input) {
    if isDisposed { return }
    switch input {
    case .event(.next(let element)):
      id &+= 1
      let current = id
      value = element
      timer.set(scheduler.scheduleAfter(dueTime) { self.submit(.tick(current)) })
    case .event(.error(let error)):
      value = nil
      forwardTerminal(.error(error))
    case .event(.completed):
      if let pending = value {
        value = nil
        forwardOn(.next(pending))
      }
      forwardTerminal(.completed)
    case .tick(let current):
      if current == id, let pending = value {
        value = nil
        forwardOn(.next(pending))
      }
    }
  }
}

extension ObservableType {
  public func debounce(_ dueTime: Int64, scheduler: Scheduler) -> Observable<Element> {
    Debounce(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
  }
}

extension Observable where Element == Value {
  public func debounce(_ dueTime: Int64, scheduler: Scheduler) -> Observable<Value> {
    ValueDebounceProducer(source: self, dueTime: dueTime, scheduler: scheduler)
  }
}

// Specialized for Value (see Value): the overrides inline the generic bodies, and the timer
// callbacks they create are specialized with them.
final class ValueDebounceProducer: Debounce<Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueDebounceSink(observer: observer, cancel: cancel, dueTime: dueTime, scheduler: scheduler)
    let subscription = source.subscribe(sink)
    return (sink, BinaryDisposable(subscription, sink.timer))
  }
}

final class ValueDebounceSink: DebounceSink<Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
  override func handle(_ input: Input) { super.handle(input) }
}
