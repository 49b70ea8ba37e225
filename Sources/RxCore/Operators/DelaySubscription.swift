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

  func makeSink(_ observer: Observer<Element>, _ cancel: any Cancelable) -> DelaySubscriptionSink<Element> {
    DelaySubscriptionSink(observer: observer, cancel: cancel)
  }
}

class DelaySubscriptionSink<Element>: Sink<Element, Element> {
  /// `.next` goes on unchanged: the `Value` leaf forwards it by pointer (`forwardNext(at:)`)
  /// without this body, so keep the two in step.
  override func on(_ event: Event<Element>) {
    if event.isStopEvent { forwardTerminal(event) } else { forwardOn(event) }
  }
}

extension ObservableType {
  public func delaySubscription(_ dueTime: Int64, scheduler: Scheduler) -> Observable<Element> {
    DelaySubscription(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
  }
}

extension Observable where Element == Value {
  public func delaySubscription(_ dueTime: Int64, scheduler: Scheduler) -> Observable<Value> {
    ValueDelaySubscriptionProducer(source: self, dueTime: dueTime, scheduler: scheduler)
  }
}

// Specialized for Value (see Value): `run` inlines the generic body (its scheduled
// subscription included) and gets the leaf sink from `makeSink`.
final class ValueDelaySubscriptionProducer: DelaySubscription<Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    super.run(observer, cancel: cancel)
  }

  override func makeSink(_ observer: Observer<Value>, _ cancel: any Cancelable) -> DelaySubscriptionSink<Value> {
    ValueDelaySubscriptionSink(observer: observer, cancel: cancel)
  }
}

final class ValueDelaySubscriptionSink: DelaySubscriptionSink<Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { forwardNext(at: element) }
}
