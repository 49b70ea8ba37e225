extension Observable {
  // rx:value-overload
  /// Mirrors the source; if it completes without an element, emits `element` first.
  public func ifEmpty(default element: Element) -> Observable<Element> {
    DefaultIfEmptyProducer(source: self, element: element)
  }
}

// rx:value-leaf copy=run
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

// rx:value-leaf on next=next
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
