extension Observable {
  /// Each element with the scheduler's clock (`scheduler.now`, nanoseconds) read when it
  /// arrives.
  public func timestamp(scheduler: Scheduler) -> Observable<(time: Int64, element: Element)> {
    TimestampProducer(source: self, scheduler: scheduler) { (time: $0, element: $1) }
  }

  // rx:value-overload
  /// `timestamp(scheduler:)` with each time and element packed into one result by `pack`
  /// (the C layer's two-item array).
  public func timestamp<Result>(
    scheduler: Scheduler, pack: @escaping (Int64, Element) -> Result
  ) -> Observable<Result> {
    TimestampProducer(source: self, scheduler: scheduler, pack: pack)
  }
}

// rx:value-leaf args=Value,Value copy=run
class TimestampProducer<Element, Result>: Producer<Result> {
  let source: Observable<Element>
  let scheduler: Scheduler
  let pack: (Int64, Element) -> Result

  init(source: Observable<Element>, scheduler: Scheduler, pack: @escaping (Int64, Element) -> Result) {
    self.source = source
    self.scheduler = scheduler
    self.pack = pack
  }

  override func run(_ observer: Observer<Result>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = TimestampSink(scheduler: scheduler, pack: pack, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

// rx:value-leaf args=Value,Value on next=next
class TimestampSink<Element, Result>: Sink<Element, Result> {
  let scheduler: Scheduler
  let pack: (Int64, Element) -> Result

  init(scheduler: Scheduler, pack: @escaping (Int64, Element) -> Result, observer: Observer<Result>,
       cancel: any Cancelable) {
    self.scheduler = scheduler
    self.pack = pack
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) {
    switch event {
    case .next(let element): _withUnprotectedUnsafePointer(to: element) { next(at: $0) }
    case .error(let error): forwardTerminal(.error(error))
    case .completed: forwardTerminal(.completed)
    }
  }

  /// `on(.next)` of the element at `element`: the pair made and handed over.
  @inline(__always) final func next(at element: UnsafePointer<Element>) {
    forwardNext(owned: pack(scheduler.now, element.pointee))
  }
}
