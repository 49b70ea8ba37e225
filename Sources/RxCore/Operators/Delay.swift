// rx:value-leaf name=ValueDelayProducer copy=run
/// Shifts every event by `dueTime` on `scheduler` (an error is delivered at once, dropping
/// what is still delayed, as RxSwift does). Each event is stamped with the scheduler's time
/// when it arrives and delivered once that time + dueTime has come; one timer is pending at
/// a time.
class Delay<Element>: TimedProducer<Element> {
  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    DelaySink(observer: observer, cancel: cancel, parameters: timing).run(source)
  }
}

/// Delay's input: the stamp is taken on arrival, before the event waits for the drain.
enum DelayInput<Element>: TimerInput {
  case event(Event<Element>, Int64)
  case tick(Void)
}

// rx:value-leaf on next={onNext(pointer: element)} super=handle
class DelaySink<Element>: TimedSink<Timing, Element, Element, DelayInput<Element>> {
  private var queue = RingBuffer<(time: Int64, event: Event<Element>)>()
  private var timerActive = false

  override func on(_ event: Event<Element>) { submit(.event(event, parameters.scheduler.now)) }

  /// `on(.next)` by pointer: copied straight into the queue when the drain is free.
  final func onNext(pointer element: UnsafePointer<Element>) {
    let time = parameters.scheduler.now
    submitNext(.event(.next(element.pointee), time), inline: { enqueue(.next(element.pointee), time) })
  }

  /// An event stamped `time` waits its turn; the timer is armed if none is.
  private func enqueue(_ event: consuming Event<Element>, _ time: Int64) {
    queue.append((time, event))
    if !timerActive {
      timerActive = true
      schedule(after: time + parameters.dueTime - parameters.scheduler.now, on: parameters.scheduler)
    }
  }

  override func handle(_ input: DelayInput<Element>) {
    let dueTime = parameters.dueTime
    switch input {
    case .event(.error(let error), _):
      queue.removeAll()
      forwardTerminal(.error(error))
    case .event(let event, let time):
      enqueue(event, time)
    case .tick:
      let now = parameters.scheduler.now
      // The due time read in place, the head popped (moved out) only once it is due.
      while !queue.isEmpty, queue[0].time + dueTime <= now {
        let head = queue.popFirst().unsafelyUnwrapped
        if head.event.isStopEvent {
          forwardTerminal(head.event)
          return
        }
        forwardOn(head.event)
        if isDisposed { return }
      }
      if !queue.isEmpty {
        schedule(after: queue[0].time + dueTime - now, on: parameters.scheduler)
      } else {
        timerActive = false
      }
    }
  }
}

extension ObservableType {
  // rx:value-overload
  public func delay(_ dueTime: Int64, scheduler: Scheduler) -> Observable<Element> {
    Delay(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
  }
}
