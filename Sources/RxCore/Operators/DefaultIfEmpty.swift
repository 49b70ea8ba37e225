extension Observable {
  /// Mirrors the source; if it completes without an element, emits `element` first.
  public func ifEmpty(default element: Element) -> Observable<Element> {
    DefaultIfEmptyProducer(source: self, element: element)
  }
}

extension Observable where Element == Value {
  public func ifEmpty(default element: Value) -> Observable<Value> {
    ValueDefaultIfEmptyProducer(source: self, element: element)
  }
}

class DefaultIfEmptyProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  let element: Element

  init(source: Observable<Element>, element: Element) {
    self.source = source
    self.element = element
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = DefaultIfEmptySink(element: element, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

class DefaultIfEmptySink<Element>: Sink<Element, Element> {
  let element: Element
  var sawElement = false

  init(element: Element, observer: Observer<Element>, cancel: any Cancelable) {
    self.element = element
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) {
    switch event {
    case .next(let element): _withUnprotectedUnsafePointer(to: element) { next(at: $0) }
    case .error: forwardTerminal(event)
    case .completed:
      if !sawElement { forwardNext(element) }
      forwardTerminal(event)
    }
  }

  /// `on(.next)` of the element at `element`, forwarded where it is (no event built).
  @inline(__always) final func next(at element: UnsafePointer<Element>) {
    sawElement = true
    forwardNext(at: element)
  }
}

// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueDefaultIfEmptyProducer: DefaultIfEmptyProducer<Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueDefaultIfEmptySink(element: element, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

final class ValueDefaultIfEmptySink: DefaultIfEmptySink<Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { next(at: element) }
}
