/// Emits the first value, then at most one value per `dueTime` (RxSwift's throttle): with
/// `latest`, the last value seen during the quiet window is emitted when it ends; without,
/// values inside the window are dropped. Completion waits for a pending latest value.
/// Events and timer ticks are serialized through a Drain (see Delay).
public class Throttle<Element>: Producer<Element> {
  let source: Observable<Element>
  let dueTime: Int64
  let latest: Bool
  let scheduler: Scheduler

  public init(source: Observable<Element>, dueTime: Int64, latest: Bool, scheduler: Scheduler) {
    self.source = source
    self.dueTime = Swift.max(0, dueTime)
    self.latest = latest
    self.scheduler = scheduler
  }

  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ThrottleSink(observer: observer, cancel: cancel, parent: self)
    let subscription = source.subscribe(sink)
    return (sink, BinaryDisposable(subscription, sink.timer))
  }
}

class ThrottleSink<Element>: Sink<Element, Element> {
  enum Input { case event(Event<Element>), tick }
  let parent: Throttle<Element>
  let timer = SerialDisposable()
  private let drain = Drain<Input>()
  private var lastUnsent: Element?
  private var lastSentTime: Int64?
  private var completed = false

  init(observer: Observer<Element>, cancel: any Cancelable, parent: Throttle<Element>) {
    self.parent = parent
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) { submit(.event(event)) }

  private final func submit(_ input: Input) { drain.submit(input) { self.handle($0) } }

  func handle(_ input: Input) {
    if isDisposed { return }
    switch input {
    case .event(.next(let element)):
      let now = parent.scheduler.now
      let remaining = lastSentTime.map { parent.dueTime - (now - $0) } ?? 0
      if remaining <= 0 {
        sendNow(element)
        return
      }
      if !parent.latest { return }
      let inFlight = lastUnsent != nil
      lastUnsent = element
      if inFlight { return }
      timer.set(parent.scheduler.scheduleAfter(remaining) { self.submit(.tick) })
    case .event(.error(let error)):
      lastUnsent = nil
      forwardTerminal(.error(error))
    case .event(.completed):
      if lastUnsent != nil {
        completed = true
      } else {
        forwardTerminal(.completed)
      }
    case .tick:
      if let pending = lastUnsent { sendNow(pending) }
      if completed { forwardTerminal(.completed) }
    }
  }

  private final func sendNow(_ element: Element) {
    lastUnsent = nil
    forwardOn(.next(element))
    // Measured after delivery: a slow observer gets its full quiet window (as RxSwift).
    lastSentTime = parent.scheduler.now
  }
}

extension ObservableType {
  public func throttle(_ dueTime: Int64, latest: Bool = true, scheduler: Scheduler) -> Observable<Element> {
    Throttle(source: asObservable(), dueTime: dueTime, latest: latest, scheduler: scheduler)
  }
}

extension Observable where Element == Value {
  public func throttle(_ dueTime: Int64, latest: Bool = true, scheduler: Scheduler) -> Observable<Value> {
    ValueThrottleProducer(source: self, dueTime: dueTime, latest: latest, scheduler: scheduler)
  }
}

// Specialized for Value (see Value): the overrides inline the generic bodies, and the timer
// callbacks they create are specialized with them.
final class ValueThrottleProducer: Throttle<Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueThrottleSink(observer: observer, cancel: cancel, parent: self)
    let subscription = source.subscribe(sink)
    return (sink, BinaryDisposable(subscription, sink.timer))
  }
}

final class ValueThrottleSink: ThrottleSink<Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
  override func handle(_ input: Input) { super.handle(input) }
}
