extension Observable {
  // rx:value-overload
  /// Mirrors the source; if it completes without an element, continues with `fallback`
  /// (subscribed only then).
  public func ifEmpty(switchTo fallback: Observable<Element>) -> Observable<Element> {
    SwitchIfEmptyProducer(source: self, fallback: fallback)
  }
}

// rx:value-leaf copy=run
class SwitchIfEmptyProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  let fallback: Observable<Element>

  init(source: Observable<Element>, fallback: Observable<Element>) {
    self.source = source
    self.fallback = fallback
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = SwitchIfEmptySink(fallback: fallback, observer: observer, cancel: cancel)
    let subscription = sink.run(source)
    return (consume sink, subscription)
  }
}

// rx:value-leaf copy=makeProxy on next=next
class SwitchIfEmptySink<Element>: ContinuingSink<Element> {
  let fallback: Observable<Element>
  var sawElement = false

  init(fallback: Observable<Element>, observer: Observer<Element>, cancel: any Cancelable) {
    self.fallback = fallback
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) {
    if isDisposed { return }
    switch event {
    case .next(let element): _withUnprotectedUnsafePointer(to: element) { next(at: $0) }
    case .error: forwardTerminal(event)
    case .completed:
      if sawElement {
        forwardTerminal(event)
        return
      }
      continueWith(fallback)
    }
  }

  /// `on(.next)` of the element at `element`, forwarded where it is (no event built).
  @inline(__always) final func next(at element: UnsafePointer<Element>) {
    if isDisposed { return }
    sawElement = true
    forwardNext(at: element)
  }
}
