/// catch and switch_if_empty: one producer and one sink that may continue with a second
/// observable once the source has terminated (the handler's result, the fallback). The
/// source is done before the second one is subscribed, so their events never overlap and
/// need no serialization. The `Rule` (a type parameter, folded away in each sink's code)
/// says whether the sink notes that an element went by.
protocol ContinuationRule {
  /// switch_if_empty: the continuation asks whether an element went by.
  static var tracksElements: Bool { get }
}

/// Given the source's terminal event and whether an element went by, the observable to go
/// on with, or nil to forward the event; a thrown error fails the stream with that error.
typealias Continuation<Element> = (_ terminal: Event<Element>, _ sawElement: Bool) throws -> Observable<Element>?

// rx:value-leaf name=ValueCatchProducer args=Value,CatchRule copy=makeSink super=run
// rx:value-leaf name=ValueSwitchIfEmptyProducer args=Value,SwitchIfEmptyRule copy=makeSink super=run
class ContinuingProducer<Element, Rule: ContinuationRule>: UnaryProducer<Element, Element, Continuation<Element>> {
  override func makeSink(_ observer: Observer<Element>, cancel: any Cancelable) -> Sink<Element, Element> {
    ContinuingSink<Element, Rule>(continuation: parameter, observer: observer, cancel: cancel)
  }
}

// rx:value-leaf name=ValueCatchSink args=Value,CatchRule copy=makeProxy on next=next
// rx:value-leaf name=ValueSwitchIfEmptySink args=Value,SwitchIfEmptyRule copy=makeProxy on next=next
class ContinuingSink<Element, Rule: ContinuationRule>: Sink<Element, Element> {
  let continuation: Continuation<Element>
  let subscription = SerialDisposable()
  var sawElement = false

  init(continuation: @escaping Continuation<Element>, observer: Observer<Element>, cancel: any Cancelable) {
    self.continuation = continuation
    super.init(observer: observer, cancel: cancel)
  }

  /// Subscribes the source; returns the subscription of whichever is current. Final, so
  /// that a leaf producer's call gets it specialized.
  final override func subscribe(to source: Observable<Element>) -> any Disposable {
    let first = SingleAssignmentDisposable()
    subscription.set(first)
    first.trySet(source.subscribe(self))
    return subscription
  }

  override func on(_ event: Event<Element>) {
    if isDisposed { return }
    if case .next(let element) = event { return _withUnprotectedUnsafePointer(to: element) { next(at: $0) } }
    let second: Observable<Element>?
    do { second = try continuation(event, sawElement) } catch {
      forwardTerminal(.error(error))
      return
    }
    guard let second else { return forwardTerminal(event) }
    // Lets the terminated source's subscription go and forwards `second` from now on.
    let current = SingleAssignmentDisposable()
    subscription.set(current)
    current.trySet(second.subscribe(makeProxy()))
  }

  /// `on(.next)` of the element at `element`, forwarded where it is (no event built).
  @inline(__always) final func next(at element: UnsafePointer<Element>) {
    if Rule.tracksElements { sawElement = true }
    forwardNext(at: element)
  }

  /// The observer of the second observable (a leaf gives its own).
  func makeProxy() -> Observer<Element> { ContinuationProxy(parent: self) }

  /// Where no element is noted (catch), elements go on unchanged: a subject hands them to the
  /// downstream observer directly (see `PassThroughSink`).
  override var nextTarget: Unmanaged<Observer<Element>> {
    Rule.tracksElements ? .passUnretained(self) : .passUnretained(observer)
  }
}

// rx:value-leaf on next={parent.forwardNext(at: element)} super=dropped,wantsNoMoreEvents
/// Forwards the second observable's events to the sink, which ends with it.
class ContinuationProxy<Element>: Observer<Element> {
  let parent: Sink<Element, Element>
  init(parent: Sink<Element, Element>) { self.parent = parent }

  /// `.next` goes on unchanged: the `Value` leaf forwards it by pointer (`forwardNext(at:)`)
  /// without this body, so keep the two in step.
  override func on(_ event: Event<Element>) {
    if event.isStopEvent { parent.forwardTerminal(event) } else { parent.forwardOn(event) }
  }

  override func dropped() { parent.dropped() }

  override var wantsNoMoreEvents: Bool { parent.wantsNoMoreEvents }
}
