// rx:value-leaf super=run
/// `element` again and again, one value per action on `scheduler` (RxSwift's
/// repeatElement): see `RecursiveScheduling`. It ends only when disposed, so it is meant
/// for an operator downstream that stops it (take...).
class RepeatElementObservable<Element>: Producer<Element> {
  let element: Element
  let scheduler: Scheduler

  public init(element: Element, scheduler: Scheduler) {
    self.element = element
    self.scheduler = scheduler
  }

  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = RepeatElementSink(element: element, observer: observer, cancel: cancel)
    return (sink, RecursiveScheduling.start(on: scheduler) { sink.mayStep() && sink.emit(sink.element) })
  }
}

final class RepeatElementSink<Element>: SteppingSink<Element> {
  let element: Element

  init(element: Element, observer: Observer<Element>, cancel: any Cancelable) {
    self.element = element
    super.init(observer: observer, cancel: cancel)
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
