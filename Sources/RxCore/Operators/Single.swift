extension Observable {
  // rx:value-overload
  /// The source's one element (forwarded as it arrives), then completed when the source
  /// completes: `RxError.noElements` for an empty source, `RxError.moreThanOneElement` at
  /// the second element.
  public func single() -> Observable<Element> { SingleProducer(source: self) }
}

// rx:value-leaf copy=makeSink super=run
class SingleProducer<Element>: UnaryProducer<Element, Element, Void> {
  override func makeSink(_ observer: Observer<Element>, cancel: any Cancelable) -> Sink<Element, Element> {
    SingleSink<Element>(observer: observer, cancel: cancel)
  }
}

// rx:value-leaf on next=next
class SingleSink<Element>: Sink<Element, Element> {
  var sawElement = false

  override func on(_ event: Event<Element>) {
    switch event {
    case .next(let element): _withUnprotectedUnsafePointer(to: element) { next(at: $0) }
    case .error: forwardTerminal(event)
    case .completed: forwardTerminal(sawElement ? event : .error(RxError.noElements))
    }
  }

  /// `on(.next)` of the element at `element` (what `onNext(at:)` and `on` both run).
  @inline(__always) final func next(at element: UnsafePointer<Element>) {
    if sawElement {
      forwardTerminal(.error(RxError.moreThanOneElement))
      return
    }
    // Set before forwarding: an element sent from inside the observer's own on_next is
    // the second one.
    sawElement = true
    forwardNext(at: element)
  }
}
