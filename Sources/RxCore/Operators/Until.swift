/// skip(until:) and take(until:): one producer and one sink, told apart by their `Gate` (a
/// type parameter, so each sink's code has it folded away).
protocol UntilGate {
  /// take(until:): elements pass until `other` emits, which completes the stream.
  /// skip(until:): elements pass once `other` has emitted.
  static var takes: Bool { get }
}

enum SkipGate: UntilGate {
  static var takes: Bool { false }
}

enum TakeGate: UntilGate {
  static var takes: Bool { true }
}

// rx:value-leaf name=ValueSkipUntilProducer args=Value,Value,SkipGate copy=makeSink super=run
// rx:value-leaf name=ValueTakeUntilProducer args=Value,Value,TakeGate copy=makeSink super=run
/// The parameter is the other observable.
class UntilProducer<Element, Other, Gate: UntilGate>: UnaryProducer<Element, Element, Observable<Other>> {
  override func makeSink(_ observer: Observer<Element>, cancel: any Cancelable) -> Sink<Element, Element> {
    UntilSink<Element, Other, Gate>(other: parameter, observer: observer, cancel: cancel)
  }
}

// rx:value-leaf name=ValueSkipUntilSink args=Value,Value,SkipGate copy=makeOther on next={onSourceNext(at: element)}
// rx:value-leaf name=ValueTakeUntilSink args=Value,Value,TakeGate copy=makeOther on next={onSourceNext(at: element)}
/// Source and other events are serialized through one Drain.
class UntilSink<Element, Other, Gate: UntilGate>: Sink<Element, Element> {
  enum Signal {
    case source(Event<Element>)
    case other(Event<Other>)
  }

  let other: Observable<Other>
  let drain = Drain<Signal>()
  let sourceSubscription = SingleAssignmentDisposable()
  let otherSubscription = SingleAssignmentDisposable()
  var opened = false  // skip(until:): `other` has emitted (drain-owned)

  /// Whether the source's elements pass now.
  @inline(__always) final var forwarding: Bool { Gate.takes || opened }

  init(other: Observable<Other>, observer: Observer<Element>, cancel: any Cancelable) {
    self.other = other
    super.init(observer: observer, cancel: cancel)
  }

  final override func subscribe(to source: Observable<Element>) -> any Disposable {
    if Gate.takes {
      // `other` first, as RxSwift does: if it fires at once, the source is never subscribed.
      otherSubscription.trySet(other.subscribe(makeOther()))
      if !wantsNoMoreEvents { sourceSubscription.trySet(source.subscribe(self)) }
    } else {
      sourceSubscription.trySet(source.subscribe(self))
      if !wantsNoMoreEvents { otherSubscription.trySet(other.subscribe(makeOther())) }
    }
    return BinaryDisposable(sourceSubscription, otherSubscription)
  }

  /// The observer of `other` (a hook for the Value leaf).
  func makeOther() -> Observer<Other> { UntilOther(parent: self) }

  // Inline when the drain is free: the event is handled where it is, not copied into a signal.
  override func on(_ event: Event<Element>) {
    @inline(__always) func runInline() { handleSource(event) }
    drain.submit(.source(event), inline: runInline) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item) } }
  }

  /// `on(.next)` by pointer: when the drain is free the element is forwarded (or skipped)
  /// where it is, with no event built, copied or destroyed.
  @inline(__always) final func onSourceNext(at element: UnsafePointer<Element>) {
    @inline(__always) func runInline() { if forwarding { forwardNext(at: element) } }
    drain.submit(.source(.next(element.pointee)), inline: runInline) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item) } }
  }

  final func submit(_ signal: Signal) { drain.submit(signal) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item) } } }

  private func handleSource(_ event: Event<Element>) {
    if isDisposed { return }
    switch event {
    case .next:
      if forwarding { forwardOn(event) }
    case .error:
      forwardTerminal(event)
    case .completed:
      if forwarding {
        forwardTerminal(.completed)
      } else {
        // skip(until:) whose `other` never emitted: the subscription ends with no event (as
        // in RxSwift); observers see it as dropped.
        observer.dropped()
        dispose()
      }
    }
  }

  private func handle(_ signal: Signal) {
    if isDisposed { return }
    switch signal {
    case .source(let event):
      handleSource(event)
    case .other(.next):
      if Gate.takes {
        forwardTerminal(.completed)
      } else {
        opened = true
        otherSubscription.dispose()
      }
    case .other(.error(let error)):
      forwardTerminal(.error(error))
    case .other(.completed):
      otherSubscription.dispose()
    }
  }
}

// rx:value-leaf name=ValueSkipUntilOther args=Value,Value,SkipGate on next=copy super=wantsNoMoreEvents
// rx:value-leaf name=ValueTakeUntilOther args=Value,Value,TakeGate on next=copy super=wantsNoMoreEvents
class UntilOther<Element, Other, Gate: UntilGate>: Observer<Other> {
  let parent: UntilSink<Element, Other, Gate>
  init(parent: UntilSink<Element, Other, Gate>) { self.parent = parent }
  override func on(_ event: Event<Other>) { parent.submit(.other(event)) }
  override var wantsNoMoreEvents: Bool { parent.wantsNoMoreEvents }
}
