// rx:value-leaf name=ValueDebounceProducer copy=run
/// Emits a value only after `dueTime` has passed without another one (RxSwift's debounce);
/// completion first flushes the pending value. Ticks carry the value's number, so a tick
/// armed for an older value does nothing.
class Debounce<Element>: TimedProducer<Element> {
  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    DebounceSink(observer: observer, cancel: cancel, parameters: timing).run(source)
  }
}

// rx:value-leaf on next={onNext(pointer: element)} super=handle
class DebounceSink<Element>: TimedSink<Timing, Element, Element, TimedInput<Element, UInt64>> {
  private var id: UInt64 = 0
  private var value: Element?

  override func on(_ event: Event<Element>) { submit(.event(event)) }

  /// `on(.next)` by pointer: copied straight into `value` when the drain is free.
  final func onNext(pointer element: UnsafePointer<Element>) {
    submitNext(.event(.next(element.pointee)), inline: { hold(element.pointee) })
  }

  /// The element waits out the quiet time (drain-owned), replacing the one before.
  private func hold(_ element: consuming Element) {
    id &+= 1
    value = element
    schedule(id, after: parameters.dueTime, on: parameters.scheduler)
  }

  override func handle(_ input: TimedInput<Element, UInt64>) {
    switch input {
    case .event(.next(let element)):
      hold(element)
    case .event(.error(let error)):
      value = nil
      forwardTerminal(.error(error))
    case .event(.completed):
      if let pending = value.take() { forwardNext(owned: pending) }  // moved out, not copied
      forwardTerminal(.completed)
    case .tick(let current):
      if current == id, let pending = value.take() { forwardNext(owned: pending) }
    }
  }
}

extension ObservableType {
  // rx:value-overload
  public func debounce(_ dueTime: Int64, scheduler: Scheduler) -> Observable<Element> {
    Debounce(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
  }
}
