// rx:value-leaf name=ValueSubscribeOnProducer copy=makeSink super=run
/// Subscribes to the source on `scheduler`, and disposes that subscription there too
/// (RxSwift's SubscribeOnSink + ScheduledDisposable).
class SubscribeOn<Element>: Producer<Element> {
  let source: Observable<Element>
  let scheduler: Scheduler

  public init(source: Observable<Element>, scheduler: Scheduler) {
    self.source = source
    self.scheduler = scheduler
  }

  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = makeSink(observer, cancel)
    let disposeEverything = SerialDisposable()
    let cancelSchedule = SingleAssignmentDisposable()
    disposeEverything.set(cancelSchedule)
    let scheduler = self.scheduler, source = self.source
    cancelSchedule.setDisposable(scheduler.schedule {
      let subscription = source.subscribe(sink)
      disposeEverything.set(ScheduledDisposable(scheduler: scheduler, disposable: subscription))
    })
    return (sink, disposeEverything)
  }

  func makeSink(_ observer: Observer<Element>, _ cancel: any Cancelable) -> PassThroughSink<Element> {
    PassThroughSink(observer: observer, cancel: cancel)
  }
}

/// Disposes `disposable` on `scheduler`.
final class ScheduledDisposable: Cancelable {
  private let scheduler: Scheduler
  private let inner = SingleAssignmentDisposable()

  public init(scheduler: Scheduler, disposable: any Disposable) {
    self.scheduler = scheduler
    inner.setDisposable(disposable)
  }

  public var isDisposed: Bool { inner.isDisposed }

  public func dispose() {
    if inner.isDisposed { return }
    let inner = self.inner
    _ = scheduler.schedule { inner.dispose() }
  }
}

extension ObservableType {
  // rx:value-overload map=SubscribeOn:ValueSubscribeOnProducer
  public func subscribe(on scheduler: Scheduler) -> Observable<Element> {
    SubscribeOn(source: asObservable(), scheduler: scheduler)
  }
}
