extension Observable {
  /// The last element, once the source completes; fails with `RxError.noElements` on an
  /// empty source.
  public func last() -> Observable<Element> { LastProducer(source: self) }
}

extension Observable where Element == Value {
  public func last() -> Observable<Value> { ValueLastProducer(source: self) }
}

class LastProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  init(source: Observable<Element>) { self.source = source }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = LastSink<Element>(observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

class LastSink<Element>: Sink<Element, Element> {
  var last: Element?

  override func on(_ event: Event<Element>) {
    switch event {
    case .next(let element): last = element
    case .error:
      last = nil
      forwardTerminal(event)
    case .completed:
      guard let element = last.take() else {
        forwardTerminal(.error(RxError.noElements))
        return
      }
      forwardNext(owned: element)
      forwardTerminal(.completed)
    }
  }
}

// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueLastProducer: LastProducer<Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueLastSink(observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

final class ValueLastSink: LastSink<Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { super.on(.next(Value.copy(at: element))) }
}
