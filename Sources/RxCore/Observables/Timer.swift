// rx:value-leaf super=run
/// `interval` and `timer`: a tick count, first after `dueTime`, then every `period` (or once
/// when `period` is nil). Periodic ticks are drift-free and never overlap (PeriodicTask).
class TimerObservable<Element>: ParameterProducer<Element, Ticks<Element>> {
  override init(_ ticks: Ticks<Element>) {
    precondition(ticks.period == nil || (ticks.period! > 0 && ticks.scheduler.supportsPeriodic),
      "periodic timers need a positive period and a scheduler that supports periodic work")
    super.init(ticks)
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = TimerSink(observer: observer, cancel: cancel, make: parameter.make)
    let subscription: any Disposable
    if let period = parameter.period {
      subscription = parameter.scheduler.schedulePeriodic(startAfter: parameter.dueTime, period: period) { sink.tick() }
    } else {
      subscription = parameter.scheduler.scheduleAfter(parameter.dueTime) { sink.once() }
    }
    return (sink, subscription)
  }
}

/// When a timer ticks, and what it emits for each tick's count.
struct Ticks<Element> {
  let dueTime: Int64
  let period: Int64?
  let scheduler: Scheduler
  let make: (Int64) -> Element
}

final class TimerSink<Element>: Sink<Element, Element> {
  let make: (Int64) -> Element
  private var count: Int64 = 0  // ticks never overlap

  init(observer: Observer<Element>, cancel: any Cancelable, make: @escaping (Int64) -> Element) {
    self.make = make
    super.init(observer: observer, cancel: cancel)
  }

  final func tick() {
    forwardOn(.next(make(count)))
    count &+= 1
  }

  final func once() {
    forwardOn(.next(make(0)))
    forwardTerminal(.completed)
  }
}

extension Observable where Element == Int64 {
  public static func interval(_ period: Int64, scheduler: Scheduler) -> Observable<Int64> {
    TimerObservable(Ticks(dueTime: period, period: period, scheduler: scheduler, make: { $0 }))
  }

  public static func timer(_ dueTime: Int64, period: Int64? = nil, scheduler: Scheduler) -> Observable<Int64> {
    TimerObservable(Ticks(dueTime: dueTime, period: period, scheduler: scheduler, make: { $0 }))
  }
}

// Disfavored: `Observable.interval(...)` with the element type left to inference stays the
// Int64 one; `Observable<Value>.interval(...)` can only be these.
extension Observable where Element == Value {
  /// `interval` with the ticks as `.int` values (what the C ABI's rx_interval emits).
  @_disfavoredOverload
  public static func interval(_ period: Int64, scheduler: Scheduler) -> Observable<Value> {
    ValueTimerObservable(Ticks(dueTime: period, period: period, scheduler: scheduler, make: { .int($0) }))
  }

  /// `timer` with the ticks as `.int` values (what the C ABI's rx_timer emits).
  @_disfavoredOverload
  public static func timer(_ dueTime: Int64, period: Int64? = nil, scheduler: Scheduler) -> Observable<Value> {
    ValueTimerObservable(Ticks(dueTime: dueTime, period: period, scheduler: scheduler, make: { .int($0) }))
  }
}
