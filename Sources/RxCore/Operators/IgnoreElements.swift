extension Observable {
  /// Only the terminal event.
  public func ignoreElements() -> Observable<Element> { IgnoreElementsProducer(source: self) }
}

extension Observable where Element == Value {
  public func ignoreElements() -> Observable<Value> { ValueIgnoreElementsProducer(source: self) }
}

class IgnoreElementsProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  init(source: Observable<Element>) { self.source = source }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = IgnoreElementsSink<Element>(observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

class IgnoreElementsSink<Element>: Sink<Element, Element> {
  override func on(_ event: Event<Element>) {
    if event.isStopEvent { forwardTerminal(event) }
  }
}

// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueIgnoreElementsProducer: IgnoreElementsProducer<Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueIgnoreElementsSink(observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

final class ValueIgnoreElementsSink: IgnoreElementsSink<Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) {}  // an element changes nothing
}
