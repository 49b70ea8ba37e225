/// Subscribes to the source on `scheduler`, and disposes that subscription there too
/// (RxSwift's SubscribeOnSink + ScheduledDisposable).
class SubscribeOn<Element>: Producer<Element> {
  public typealias SinkFactory = (Observer<Element>, any Cancelable) -> SubscribeOnSink<Element>
  let source: Observable<Element>
  let scheduler: Scheduler
  let makeSink: SinkFactory

  /// `makeSink`: a concrete subclass from a caller that knows `Element` (see ObserveOn).
  public init(source: Observable<Element>, scheduler: Scheduler,
              makeSink: @escaping SinkFactory = { SubscribeOnSink(observer: $0, cancel: $1) })
  {
    self.source = source
    self.scheduler = scheduler
    self.makeSink = makeSink
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
}

// rx:value-leaf on next=forward
class SubscribeOnSink<Element>: Sink<Element, Element> {
  public override init(observer: Observer<Element>, cancel: any Cancelable) {
    super.init(observer: observer, cancel: cancel)
  }

  @inlinable
  /// `.next` goes on unchanged: the `Value` leaf forwards it by pointer (`forwardNext(at:)`)
  /// without this body, so keep the two in step.
  open override func on(_ event: Event<Element>) {
    if event.isStopEvent { forwardTerminal(event) } else { forwardOn(event) }
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
  public func subscribe(on scheduler: Scheduler) -> Observable<Element> {
    SubscribeOn(source: asObservable(), scheduler: scheduler)
  }
}

extension Observable where Element == Value {
  public func subscribe(on scheduler: Scheduler) -> Observable<Value> {
    ValueSubscribeOnProducer(source: self, scheduler: scheduler)
  }
}

// rx:hand-leaf: hands the generic init a factory of its leaf sink, not the generic body.
// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueSubscribeOnProducer: SubscribeOn<Value> {
  init(source: Observable<Value>, scheduler: Scheduler) {
    super.init(source: source, scheduler: scheduler) { ValueSubscribeOnSink(observer: $0, cancel: $1) }
  }

  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    super.run(observer, cancel: cancel)
  }
}
