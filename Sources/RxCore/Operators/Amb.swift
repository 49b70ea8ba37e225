extension Observable {
  /// Mirrors whichever source emits first (any event), disposing the others. With no
  /// sources it never emits, as RxSwift's `amb` of an empty sequence.
  public static func amb(_ sources: [Observable<Element>]) -> Observable<Element> {
    if sources.isEmpty { return Never() }
    return AmbProducer(sources: sources)
  }

  // rx:value-overload
  /// Mirrors this sequence or `other`, whichever emits first.
  public func amb(_ other: Observable<Element>) -> Observable<Element> { Observable.amb([self, other]) }
}

extension Observable where Element == Value {
  public static func amb(_ sources: [Observable<Value>]) -> Observable<Value> {
    if sources.isEmpty { return Never() }
    return ValueAmbProducer(sources: sources)
  }

}

// rx:value-leaf copy=run
class AmbProducer<Element>: Producer<Element> {
  let sources: [Observable<Element>]
  init(sources: [Observable<Element>]) { self.sources = sources }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = AmbSink<Element>(count: sources.count, observer: observer, cancel: cancel)
    let subscription = sink.subscribeAll(sources)
    return (consume sink, subscription)
  }
}

// rx:value-leaf copy=makeObserver super=submit,submitNext
/// Events of all sources are serialized through one Drain: the first one decides the winner.
class AmbSink<Element>: IndexedSink<Element, Element> {
  let drain = Drain<(Int, Event<Element>)>()
  var winner = -1  // drain-owned

  override func submit(_ index: Int, _ event: Event<Element>) {
    // Inline when the drain is free: the event is handled where it is, not copied into an item.
    @inline(__always) func runInline() { handle(index, event) }
    drain.submit((index, event), inline: runInline) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item.0, item.1) } }
  }

  override func submitNext(_ index: Int, at element: UnsafePointer<Element>) {
    @inline(__always) func runInline() { if !isDisposed, wins(index) { forwardNext(at: element) } }
    drain.submit((index, .next(element.pointee)), inline: runInline) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item.0, item.1) } }
  }

  private func handle(_ index: Int, _ event: Event<Element>) {
    if isDisposed { return }
    guard wins(index) else { return }
    if event.isStopEvent { forwardTerminal(event) } else { forwardOn(event) }
  }

  /// Whether source `index` is the one followed: the first to send anything wins, and the
  /// others are disposed then (drain-owned).
  @inline(__always) private func wins(_ index: Int) -> Bool {
    if winner < 0 { decide(index) }
    return index == winner
  }

  /// The first to send anything: `index` wins, the others are disposed.
  @inline(never) private func decide(_ index: Int) {
    winner = index
    for i in subscriptions.indices where i != index { subscriptions[i].dispose() }
  }
}
