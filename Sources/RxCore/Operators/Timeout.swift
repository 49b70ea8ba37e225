// rx:value-leaf name=ValueTimeoutProducer copy=run
/// Fails with `RxError.timeout` if the first value does not arrive within `dueTime` of the
/// subscription, or the next one within `dueTime` of its predecessor (RxSwift's timeout);
/// with a fallback, switches to it instead: the source is disposed, then the fallback is
/// subscribed and mirrored (RxSwift's timeout(_:other:scheduler:)).
/// One timer at a time, re-armed lazily: a value only moves the deadline (no timer scheduled
/// and cancelled per value); a tick before the deadline arms the timer for the rest of it.
/// So on a virtual clock a value due at the very time of the deadline is in time if it was
/// scheduled before that timer was armed (at the subscription or the last tick), else late.
class Timeout<Element>: Producer<Element> {
  let source: Observable<Element>
  let parameters: TimeoutParameters<Element>

  public init(source: Observable<Element>, dueTime: Int64, fallback: Observable<Element>?, scheduler: Scheduler) {
    self.source = source
    self.parameters = TimeoutParameters(
      timing: Timing(dueTime: Swift.max(0, dueTime), scheduler: scheduler), fallback: fallback)
  }

  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    TimeoutSink(observer: observer, cancel: cancel, parameters: parameters).start(source)
  }
}

struct TimeoutParameters<Element> {
  let timing: Timing
  let fallback: Observable<Element>?
}

// rx:value-leaf copy=makeFallbackObserver on next={onNext(pointer: element)} super=handle
class TimeoutSink<Element>: TimedSink<TimeoutParameters<Element>, Element, Element, TimedInput<Element, Void>> {
  /// When the window of the last value (or of the subscription) ends. Drain-owned.
  private var deadline: Int64 = 0
  private var switched = false
  /// With a fallback: the source's subscription, then the fallback's (nil without one, so a
  /// plain timeout allocates nothing more).
  private let current: SerialDisposable?

  override init(observer: Observer<Element>, cancel: any Cancelable, parameters: TimeoutParameters<Element>) {
    current = parameters.fallback == nil ? nil : SerialDisposable()
    super.init(observer: observer, cancel: cancel, parameters: parameters)
  }

  /// Arms the first timer, then subscribes.
  final func start(_ source: Observable<Element>) -> (sink: any Disposable, subscription: any Disposable) {
    deadline = windowEnd()
    guard let current else {
      schedule(after: parameters.timing.dueTime, on: parameters.timing.scheduler)
      return run(source)
    }
    // The timer may fire before the source's subscription is returned: then the switch has
    // replaced `first`, and the subscription is disposed as soon as it is set.
    let first = SingleAssignmentDisposable()
    current.set(first)
    schedule(after: parameters.timing.dueTime, on: parameters.timing.scheduler)
    first.trySet(run(source).subscription)
    return (self, current)
  }

  override func on(_ event: Event<Element>) { submit(.event(event)) }

  /// `on(.next)` by pointer: handled where it is when the drain is free.
  final func onNext(pointer element: UnsafePointer<Element>) {
    submitNext(.event(.next(element.pointee)), inline: { if !switched { next(at: element) } })
  }

  /// An element (drain-owned, not switched): forwarded, and the deadline moved past it.
  private func next(at element: UnsafePointer<Element>) {
    forwardNext(at: element)
    deadline = windowEnd()
  }

  /// `dueTime` from now on the scheduler's clock.
  private func windowEnd() -> Int64 {
    MonotonicClock.deadline(after: parameters.timing.dueTime, from: parameters.timing.scheduler.now)
  }

  override func handle(_ input: TimedInput<Element, Void>) {
    if switched { return }
    switch input {
    case .event(.next(let element)):
      _withUnprotectedUnsafePointer(to: element) { next(at: $0) }
    case .event(let stop):
      forwardTerminal(stop)
    case .tick:
      let now = parameters.timing.scheduler.now
      if now < deadline { return schedule(after: deadline - now, on: parameters.timing.scheduler) }
      guard let current, let fallback = parameters.fallback else {
        forwardTerminal(.error(RxError.timeout))
        return
      }
      switched = true
      let second = SingleAssignmentDisposable()
      current.set(second)  // disposes the source's subscription and the timer
      second.trySet(fallback.subscribe(makeFallbackObserver()))
    }
  }

  /// The fallback's observer: it forwards straight downstream, as nothing else does once
  /// the sink has switched (a leaf gives its own).
  func makeFallbackObserver() -> Observer<Element> { ContinuationProxy(parent: self) }
}

extension ObservableType {
  // rx:value-overload
  public func timeout(_ dueTime: Int64, scheduler: Scheduler) -> Observable<Element> {
    Timeout(source: asObservable(), dueTime: dueTime, fallback: nil, scheduler: scheduler)
  }

  public func timeout(_ dueTime: Int64, other: Observable<Element>, scheduler: Scheduler) -> Observable<Element> {
    Timeout(source: asObservable(), dueTime: dueTime, fallback: other, scheduler: scheduler)
  }
}

extension Observable where Element == Value {
  public func timeout(_ dueTime: Int64, other: Observable<Value>, scheduler: Scheduler) -> Observable<Value> {
    ValueTimeoutProducer(source: self, dueTime: dueTime, fallback: other, scheduler: scheduler)
  }
}
