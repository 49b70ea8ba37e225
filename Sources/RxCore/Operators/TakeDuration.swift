// rx:value-leaf name=ValueTakeDurationProducer copy=run
/// Mirrors the source until `dueTime` has passed since the subscription, then completes and
/// disposes it (RxSwift's take(for:scheduler:)). The timer is armed even for a due time of 0,
/// so a synchronous source's elements still pass before the completion.
class TakeDuration<Element>: TimedProducer<Element> {
  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    TakeDurationSink(observer: observer, cancel: cancel, parameters: timing).start(source)
  }
}

// rx:value-leaf on next={onNext(pointer: element)} super=handle
class TakeDurationSink<Element>: TimedSink<Timing, Element, Element, TimedInput<Element, Void>> {
  /// Arms the timer before subscribing, so the window starts with the subscription.
  final func start(_ source: Observable<Element>) -> (sink: any Disposable, subscription: any Disposable) {
    schedule(after: parameters.dueTime, on: parameters.scheduler)
    return run(source)
  }

  override func on(_ event: Event<Element>) { submit(.event(event)) }

  /// `on(.next)` by pointer: forwarded where it is when the drain is free.
  final func onNext(pointer element: UnsafePointer<Element>) {
    @inline(__always) func runInline() { forwardNext(at: element) }
    submitNext(.event(.next(element.pointee)), inline: runInline)
  }

  override func handle(_ input: TimedInput<Element, Void>) {
    switch input {
    case .event(let event):
      if event.isStopEvent { forwardTerminal(event) } else { forwardOn(event) }
    case .tick:
      forwardTerminal(.completed)
    }
  }
}

extension ObservableType {
  // rx:value-overload
  public func take(for duration: Int64, scheduler: Scheduler) -> Observable<Element> {
    TakeDuration(source: asObservable(), dueTime: duration, scheduler: scheduler)
  }
}
