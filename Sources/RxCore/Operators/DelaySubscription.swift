// rx:value-leaf name=ValueDelaySubscriptionProducer copy=makeSink super=run
/// Subscribes to the source `dueTime` after the subscription, on `scheduler`.
class DelaySubscription<Element>: TimedProducer<Element> {
  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = makeSink(observer, cancel)
    let subscription = SerialDisposable()
    let source = self.source
    subscription.setScheduled {
      timing.scheduler.scheduleAfter(timing.dueTime) { subscription.set(source.subscribe(sink)) }
    }
    return (sink, subscription)
  }

  func makeSink(_ observer: Observer<Element>, _ cancel: any Cancelable) -> PassThroughSink<Element> {
    PassThroughSink(observer: observer, cancel: cancel)
  }
}

extension ObservableType {
  // rx:value-overload
  public func delaySubscription(_ dueTime: Int64, scheduler: Scheduler) -> Observable<Element> {
    DelaySubscription(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
  }
}
