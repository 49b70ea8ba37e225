/// A sink that may continue with a second observable once its source has terminated
/// (catch's handler result, switch_if_empty's fallback). The source is done before the
/// second one is subscribed, so their events never overlap and need no serialization.
class ContinuingSink<Element>: Sink<Element, Element> {
  let subscription = SerialDisposable()

  /// Subscribes the source; returns the subscription of whichever is current. Final, so
  /// that a leaf producer's call gets it specialized.
  final func run(_ source: Observable<Element>) -> any Disposable {
    let first = SingleAssignmentDisposable()
    subscription.set(first)
    first.trySet(source.subscribe(self))
    return subscription
  }

  /// Lets the terminated source's subscription go and forwards `next` from now on.
  final func continueWith(_ next: Observable<Element>) {
    let second = SingleAssignmentDisposable()
    subscription.set(second)
    second.trySet(next.subscribe(makeProxy()))
  }

  /// The observer of the second observable (a leaf gives its own).
  func makeProxy() -> Observer<Element> { ContinuationProxy(parent: self) }
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
