// rx:value-leaf name=ValueSkipDurationProducer copy=run
/// Drops the elements that arrive before `dueTime` has passed since the subscription, then
/// mirrors the source (RxSwift's skip(_:scheduler:)); terminal events pass at any time. A due
/// time of 0 arms no timer, so even a synchronous source's elements pass.
class SkipDuration<Element>: TimedProducer<Element> {
  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    SkipDurationSink(observer: observer, cancel: cancel, parameters: timing).start(source)
  }
}

// rx:value-leaf on next={onNext(pointer: element)} super=handle
class SkipDurationSink<Element>: TimedSink<Timing, Element, Element, TimedInput<Element, Void>> {
  private var open = false

  /// Arms the timer before subscribing, so the window starts with the subscription.
  final func start(_ source: Observable<Element>) -> (sink: any Disposable, subscription: any Disposable) {
    if parameters.dueTime == 0 {
      open = true
    } else {
      schedule(after: parameters.dueTime, on: parameters.scheduler)
    }
    return run(source)
  }

  override func on(_ event: Event<Element>) { submit(.event(event)) }

  /// `on(.next)` by pointer: forwarded (once open) where it is when the drain is free.
  final func onNext(pointer element: UnsafePointer<Element>) {
    @inline(__always) func runInline() { if open { forwardNext(at: element) } }
    submitNext(.event(.next(element.pointee)), inline: runInline)
  }

  override func handle(_ input: TimedInput<Element, Void>) {
    switch input {
    case .event(.next(let element)):
      if open { forwardNext(element) }
    case .event(let stop):
      forwardTerminal(stop)
    case .tick:
      open = true
    }
  }
}

extension ObservableType {
  // rx:value-overload
  public func skip(_ duration: Int64, scheduler: Scheduler) -> Observable<Element> {
    SkipDuration(source: asObservable(), dueTime: duration, scheduler: scheduler)
  }
}
