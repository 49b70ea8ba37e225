// rx:value-leaf on next=forward
/// The sink of an operator whose elements go on unchanged (ref_count, subscribe_on,
/// delay_subscription): what the operator adds is around the subscription, and only the
/// terminal events matter to it. A subject hands the elements straight to the downstream
/// observer (`nextTarget`).
class PassThroughSink<Element>: Sink<Element, Element> {
  /// `.next` goes on unchanged: the `Value` leaf forwards it by pointer (`forwardNext(at:)`)
  /// without this body, so keep the two in step.
  override func on(_ event: Event<Element>) {
    if event.isStopEvent { forwardTerminal(event) } else { forwardOn(event) }
  }

  /// The sink's own disposed check stands in the subject's check of the subscription, which
  /// the sink's dispose disposes in the same call.
  override var nextTarget: Unmanaged<Observer<Element>> { .passUnretained(observer) }
}
