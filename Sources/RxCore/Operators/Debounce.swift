/// Emits a value only after `dueTime` has passed without another one (RxSwift's debounce);
/// completion first flushes the pending value. Events and timer ticks are serialized
/// through a Drain (see Delay).
public final class Debounce<Element>: Producer<Element> {
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

final class DebounceSink<Element>: Sink<Element, Element> {
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

  private func submit(_ input: Input) { drain.submit(input) { self.handle($0) } }

  private func handle(_ input: Input) {
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
