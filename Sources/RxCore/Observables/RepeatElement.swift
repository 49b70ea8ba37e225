import CRxcCore
import Synchronization

/// `element` again and again, one value per action on `scheduler` (RxSwift's
/// repeatElement, recursive scheduling): other work on a serial scheduler runs between two
/// values, and disposing cancels the next one. It ends only when disposed, so it is meant
/// for an operator downstream that stops it (take...).
public class RepeatElementObservable<Element>: Producer<Element> {
  let element: Element
  let scheduler: Scheduler

  public init(element: Element, scheduler: Scheduler) {
    self.element = element
    self.scheduler = scheduler
  }

  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = RepeatElementSink(element: element, scheduler: scheduler, observer: observer, cancel: cancel)
    sink.scheduleNext()
    return (sink, sink.pending)
  }
}

final class RepeatElementSink<Element>: Sink<Element, Element> {
  let element: Element
  let scheduler: Scheduler
  let pending = SerialDisposable()

  init(element: Element, scheduler: Scheduler, observer: Observer<Element>, cancel: any Cancelable) {
    self.element = element
    self.scheduler = scheduler
    super.init(observer: observer, cancel: cancel)
  }

  /// Schedules the next value. A scheduler that runs the action at once on this thread
  /// (immediate, or current-thread outside a trampoline) gets a loop here instead of a
  /// recursion as deep as the number of values.
  final func scheduleNext() {
    while true {
      let step = RepeatStep()
      pending.setScheduled {
        scheduler.schedule { [self] in
          if step.claimInline() { return }
          if emit() { scheduleNext() }
        }
      }
      if step.leaveScheduled() { return }
      if !emit() { return }
    }
  }

  /// Forwards one value; false once nobody wants more.
  private func emit() -> Bool {
    if isDisposed { return false }
    if observer.wantsNoMoreEvents {
      dispose()
      return false
    }
    forwardOn(.next(element))
    return !isDisposed
  }
}

/// One scheduling of the next value: whether its action ran inline, inside `schedule` on
/// the scheduling thread (the scheduling frame then emits), or later (the action emits).
final class RepeatStep: @unchecked Sendable {
  private let thread = rxc_thread_self()
  private let state = Atomic<Int>(0)  // 0 scheduling, 1 ran inline, 2 schedule returned

  /// In the action: true if it runs inside `schedule` on the scheduling thread.
  func claimInline() -> Bool {
    thread == rxc_thread_self() && state.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged
  }

  /// After `schedule` returned: true if the action has not run inline.
  func leaveScheduled() -> Bool {
    state.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged
  }
}

extension Observable {
  public static func repeatElement(_ element: Element, scheduler: Scheduler = CurrentThreadScheduler.instance)
    -> Observable<Element>
  {
    RepeatElementObservable(element: element, scheduler: scheduler)
  }
}

extension Observable where Element == Value {
  public static func repeatElement(_ element: Value, scheduler: Scheduler = CurrentThreadScheduler.instance)
    -> Observable<Value>
  {
    ValueRepeatElementObservable(element: element, scheduler: scheduler)
  }
}

// Specialized for Value (see Value): `run` inlines the generic body, so the sink and the
// actions it schedules are specialized code.
final class ValueRepeatElementObservable: RepeatElementObservable<Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    super.run(observer, cancel: cancel)
  }
}
