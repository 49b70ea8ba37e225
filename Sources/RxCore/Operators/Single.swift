extension Observable {
  // rx:value-overload
  /// The source's one element (forwarded as it arrives), then completed when the source
  /// completes: `RxError.noElements` for an empty source, `RxError.moreThanOneElement` at
  /// the second element.
  public func single() -> Observable<Element> { SinkProducer<Element, SingleSink<Element>>(source: self) }
}

// rx:value-leaf on next=next
class SingleSink<Element>: Sink<Element, Element>, ObserverMadeSink {
  var sawElement = false

  required override init(observer: Observer<Element>, cancel: any Cancelable) { super.init(observer: observer, cancel: cancel) }

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
