extension Observable {
  // rx:value-overload
  /// Forwards elements until `other` emits an element (then completes). An error of
  /// `other` fails the stream; its completion changes nothing.
  public func take<Other>(until other: Observable<Other>) -> Observable<Element> {
    TakeUntilProducer(source: self, other: other)
  }
}

// rx:value-leaf copy=run
class TakeUntilProducer<Element, Other>: Producer<Element> {
  let source: Observable<Element>
  let other: Observable<Other>

  init(source: Observable<Element>, other: Observable<Other>) {
    self.source = source
    self.other = other
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = TakeUntilSink<Element, Other>(observer: observer, cancel: cancel)
    let subscription = sink.run(source, other)
    return (consume sink, subscription)
  }
}

// rx:value-leaf copy=makeOther on next={onSourceNext(at: element)}
/// Source and other events are serialized through one Drain.
class TakeUntilSink<Element, Other>: Sink<Element, Element> {
  enum Signal {
    case source(Event<Element>)
    case other(Event<Other>)
  }

  let drain = Drain<Signal>()
  let sourceSubscription = SingleAssignmentDisposable()
  let otherSubscription = SingleAssignmentDisposable()

  func run(_ source: Observable<Element>, _ other: Observable<Other>) -> any Disposable {
    // `other` first, as RxSwift does: if it fires at once, the source is never subscribed.
    otherSubscription.trySet(other.subscribe(makeOther()))
    if !wantsNoMoreEvents { sourceSubscription.trySet(source.subscribe(self)) }
    return BinaryDisposable(sourceSubscription, otherSubscription)
  }

  /// The observer of `other` (a hook for the Value leaf).
  func makeOther() -> Observer<Other> { TakeUntilOther(parent: self) }

  // Inline when the drain is free: the event is handled where it is, not copied into a signal.
  override func on(_ event: Event<Element>) {
    drain.submit(.source(event), inline: { handleSource(event) }) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item) } }
  }

  /// `on(.next)` by pointer: when the drain is free the element is forwarded where it is, with
  /// no event built, copied or destroyed.
  @inline(__always) final func onSourceNext(at element: UnsafePointer<Element>) {
    drain.submit(.source(.next(element.pointee)), inline: { forwardNext(at: element) }) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item) } }
  }

  final func submit(_ signal: Signal) { drain.submit(signal) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item) } } }

  private func handleSource(_ event: Event<Element>) {
    if isDisposed { return }
    if event.isStopEvent { forwardTerminal(event) } else { forwardOn(event) }
  }

  private func handle(_ signal: Signal) {
    if isDisposed { return }
    switch signal {
    case .source(let event):
      handleSource(event)
    case .other(.next):
      forwardTerminal(.completed)
    case .other(.error(let error)):
      forwardTerminal(.error(error))
    case .other(.completed):
      otherSubscription.dispose()
    }
  }
}

// rx:value-leaf on next=copy super=wantsNoMoreEvents
class TakeUntilOther<Element, Other>: Observer<Other> {
  let parent: TakeUntilSink<Element, Other>
  init(parent: TakeUntilSink<Element, Other>) { self.parent = parent }
  override func on(_ event: Event<Other>) { parent.submit(.other(event)) }
  override var wantsNoMoreEvents: Bool { parent.wantsNoMoreEvents }
}
