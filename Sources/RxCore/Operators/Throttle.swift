// rx:value-leaf name=ValueThrottleProducer copy=run
/// Emits the first value, then at most one value per `dueTime` (RxSwift's throttle): with
/// `latest`, the last value seen during the quiet window is emitted when it ends; without,
/// values inside the window are dropped. Completion waits for a pending latest value.
class Throttle<Element>: TimedProducer<Element> {
  let latest: Bool

  public init(source: Observable<Element>, dueTime: Int64, latest: Bool, scheduler: Scheduler) {
    self.latest = latest
    super.init(source: source, dueTime: dueTime, scheduler: scheduler)
  }

  final var parameters: ThrottleParameters { ThrottleParameters(timing: timing, latest: latest) }

  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    ThrottleSink(observer: observer, cancel: cancel, parameters: parameters).run(source)
  }
}

/// Throttle's parameters, copied into its sink.
struct ThrottleParameters {
  let timing: Timing
  let latest: Bool
}

// rx:value-leaf on next={onNext(pointer: element)} super=handle
class ThrottleSink<Element>: TimedSink<ThrottleParameters, Element, Element, TimedInput<Element, Void>> {
  private var lastUnsent: Element?
  private var lastSentTime: Int64?
  private var completed = false

  override func on(_ event: Event<Element>) { submit(.event(event)) }

  /// `on(.next)` by pointer: handled where it is when the drain is free.
  final func onNext(pointer element: UnsafePointer<Element>) {
    submitNext(.event(.next(element.pointee)), inline: { next(at: element) })
  }

  /// An element (drain-owned): sent now if the window allows, else kept as the latest.
  private func next(at element: UnsafePointer<Element>) {
    let now = parameters.timing.scheduler.now
    let remaining = lastSentTime.map { parameters.timing.dueTime - (now - $0) } ?? 0
    if remaining <= 0 {
      sendNow(at: element)
      return
    }
    if !parameters.latest { return }
    let inFlight = lastUnsent != nil
    lastUnsent = element.pointee
    if inFlight { return }
    schedule(after: remaining, on: parameters.timing.scheduler)
  }

  override func handle(_ input: TimedInput<Element, Void>) {
    switch input {
    case .event(.next(let element)):
      _withUnprotectedUnsafePointer(to: element) { next(at: $0) }
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
      if let pending = lastUnsent { _withUnprotectedUnsafePointer(to: pending) { sendNow(at: $0) } }
      if completed { forwardTerminal(.completed) }
    }
  }

  private final func sendNow(at element: UnsafePointer<Element>) {
    lastUnsent = nil
    forwardNext(at: element)
    // Measured after delivery: a slow observer gets its full quiet window (as RxSwift).
    lastSentTime = parameters.timing.scheduler.now
  }
}

extension ObservableType {
  // rx:value-overload
  public func throttle(_ dueTime: Int64, latest: Bool = true, scheduler: Scheduler) -> Observable<Element> {
    Throttle(source: asObservable(), dueTime: dueTime, latest: latest, scheduler: scheduler)
  }
}
