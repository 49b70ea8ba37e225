/// Subscribes to the source `dueTime` after the subscription, on `scheduler`.
public final class DelaySubscription<Element>: Producer<Element> {
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
    let sink = DelaySubscriptionSink(observer: observer, cancel: cancel)
    let subscription = SerialDisposable()
    let source = self.source
    subscription.setScheduled {
      scheduler.scheduleAfter(dueTime) { subscription.set(source.subscribe(sink)) }
    }
    return (sink, subscription)
  }
}

final class DelaySubscriptionSink<Element>: Sink<Element, Element> {
  override func on(_ event: Event<Element>) {
    if event.isStopEvent { forwardTerminal(event) } else { forwardOn(event) }
  }
}

extension ObservableType {
  public func delaySubscription(_ dueTime: Int64, scheduler: Scheduler) -> Observable<Element> {
    DelaySubscription(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
  }
}
