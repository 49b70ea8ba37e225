extension Observable {
  // rx:value-overload
  /// Emits `elements` first, then the source's events.
  public func startWith(_ elements: [Element]) -> Observable<Element> {
    StartWithProducer(source: self, ContiguousArray(elements))
  }

  // rx:value-overload
  public func startWith(_ elements: Element...) -> Observable<Element> { startWith(elements) }
}

// rx:value-leaf copy=run
/// The parameter is the elements to emit first. The run is not `UnaryProducer`'s: the
/// elements go out before the source is subscribed.
class StartWithProducer<Element>: UnaryProducer<Element, Element, ContiguousArray<Element>> {
  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    start(StartWithSink<Element>(observer: observer, cancel: cancel))
  }

  /// Final, so that a leaf's call gets it specialized.
  final func start(_ sink: StartWithSink<Element>) -> (sink: any Disposable, subscription: any Disposable) {
    for element in parameter {
      if sink.wantsNoMoreEvents { return (sink, NopDisposable.shared) }
      sink.forwardNext(element)
    }
    if sink.wantsNoMoreEvents { return (sink, NopDisposable.shared) }
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

// rx:value-leaf on next=forward
class StartWithSink<Element>: Sink<Element, Element> {
  /// `.next` goes on unchanged: the `Value` leaf forwards it by pointer (`forwardNext(at:)`)
  /// without this body, so keep the two in step.
  override func on(_ event: Event<Element>) {
    if event.isStopEvent { forwardTerminal(event) } else { forwardOn(event) }
  }
}
