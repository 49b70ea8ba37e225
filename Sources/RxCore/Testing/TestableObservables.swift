/// Test sources on virtual time (RxTest's `createColdObservable` / `createHotObservable`).

/// Replays its events for each subscriber, each at `offset` after that subscription.
public final class ColdObservable<Element>: Observable<Element> {
  private let source: ColdSource<Element>

  public init(scheduler: VirtualTimeScheduler, events: [(offset: Int64, event: Event<Element>)]) {
    source = ColdSource(scheduler: scheduler, events: events)
  }

  public override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    source.subscribe(observer)
  }
}

/// `ColdObservable`'s producer (the public class does not expose `Producer`).
final class ColdSource<Element>: Producer<Element> {
  let scheduler: VirtualTimeScheduler
  let events: [(offset: Int64, event: Event<Element>)]

  init(scheduler: VirtualTimeScheduler, events: [(offset: Int64, event: Event<Element>)]) {
    self.scheduler = scheduler
    self.events = events
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = TestSourceSink(observer: observer, cancel: cancel)
    let scheduled = CompositeDisposable()
    for (offset, event) in events {
      scheduled.insert(scheduler.scheduleAfter(offset) { sink.deliver(event) })
    }
    return (sink, scheduled)
  }
}

/// Emits its events at fixed virtual times, whoever is subscribed then. Events at times
/// already past when it is made are dropped (nobody could have seen them).
public final class HotObservable<Element>: Observable<Element> {
  private let subject = PublishSubject<Element>()
  private let scheduled = CompositeDisposable()

  public init(scheduler: VirtualTimeScheduler, events: [(time: Int64, event: Event<Element>)]) {
    super.init()
    let now = scheduler.now
    for (time, event) in events where time >= now {
      let subject = self.subject
      scheduled.insert(scheduler.scheduleAfter(time - now) { subject.on(event) })
    }
  }

  deinit {
    scheduled.dispose()
    subject.dispose()
  }

  public override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    subject.subscribe(observer)
  }
}

final class TestSourceSink<Element>: Sink<Element, Element> {
  func deliver(_ event: Event<Element>) {
    if event.isStopEvent { forwardTerminal(event) } else { forwardOn(event) }
  }
}

/// Records what a subscription sees, with the virtual time of each event.
public final class TestRecorder<Element>: ObserverType {
  let scheduler: VirtualTimeScheduler
  public private(set) var events: [(time: Int64, event: Event<Element>)] = []

  public init(scheduler: VirtualTimeScheduler) {
    self.scheduler = scheduler
    Resources.increment()
  }

  deinit { Resources.decrement() }

  public func on(_ event: Event<Element>) {
    events.append((scheduler.now, event))
  }
}
