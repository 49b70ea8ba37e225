extension Observable {
  // rx:value-overload
  /// Mirrors the source; if it completes without an element, emits `element` first.
  public func ifEmpty(default element: Element) -> Observable<Element> {
    DefaultIfEmptyProducer(source: self, element)
  }
}

// rx:value-leaf copy=makeSink super=run
class DefaultIfEmptyProducer<Element>: UnaryProducer<Element, Element, Element> {
  override func makeSink(_ observer: Observer<Element>, cancel: any Cancelable) -> Sink<Element, Element> {
    DefaultIfEmptySink(element: parameter, observer: observer, cancel: cancel)
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
