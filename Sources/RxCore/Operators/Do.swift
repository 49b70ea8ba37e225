import Synchronization

extension Observable {
  // rx:value-overload
  /// Lets a tap observer, made for each subscription by `makeTap`, see every event before
  /// it goes downstream. The tap's `dropped()` runs once when the subscription ends by
  /// dispose or drop (also after a terminal event, once the sink disposes).
  public func `do`(tap makeTap: @escaping () -> Observer<Element>) -> Observable<Element> {
    DoProducer(source: self, makeTap)
  }

  /// Closure form: each runs before the event goes downstream; `onDispose` once per
  /// subscription, when it ends for any reason.
  public func `do`(
    onNext: ((Element) -> Void)? = nil, onError: ((any Error) -> Void)? = nil,
    onCompleted: (() -> Void)? = nil, onDispose: (() -> Void)? = nil
  ) -> Observable<Element> {
    DoProducer(source: self, {
      ClosureTap(onNext: onNext, onError: onError, onCompleted: onCompleted, onDispose: onDispose)
    })
  }
}

extension Observable where Element == Value {
  public func `do`(
    onNext: ((Value) -> Void)? = nil, onError: ((any Error) -> Void)? = nil,
    onCompleted: (() -> Void)? = nil, onDispose: (() -> Void)? = nil
  ) -> Observable<Value> {
    ValueDoProducer(source: self, {
      ValueClosureTap(onNext: onNext, onError: onError, onCompleted: onCompleted, onDispose: onDispose)
    })
  }
}

// rx:value-leaf copy=makeSink super=run
/// The parameter makes the tap.
class DoProducer<Element>: UnaryProducer<Element, Element, () -> Observer<Element>> {
  override func makeSink(_ observer: Observer<Element>, cancel: any Cancelable) -> Sink<Element, Element> {
    DoSink(parent: self, tap: parameter(), observer: observer, cancel: cancel)
  }
}

// rx:value-leaf on next=next super=dropped,dispose
class DoSink<Element>: Sink<Element, Element> {
  let parent: DoProducer<Element>  // keeps the tap factory (and what it captures) alive
  let tap: Observer<Element>
  /// The tap takes `.next` by pointer (`Observer.takesNextByPointer`), asked once.
  let tapByPointer: Bool
  let tapFinished = Atomic<Bool>(false)

  init(parent: DoProducer<Element>, tap: Observer<Element>, observer: Observer<Element>, cancel: any Cancelable) {
    self.parent = parent
    self.tap = tap
    self.tapByPointer = tap.takesNextByPointer
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) {
    if isDisposed { return }
    tap.on(event)
    if event.isStopEvent { forwardTerminal(event) } else { forwardOn(event) }
  }

  /// `on(.next)` for the element at `element` (the Value leaf's `onNext(at:)`): no `Event`.
  final func next(at element: UnsafePointer<Element>) {
    if isDisposed { return }
    if tapByPointer { tap.onNext(at: element) } else { tap.on(.next(element.pointee)) }
    forwardNext(at: element)
  }

  private func finishTap() {
    if !tapFinished.exchange(true, ordering: .acquiringAndReleasing) { tap.dropped() }
  }

  override func dropped() {
    if isDisposed { return }
    finishTap()  // the tap hears of it before the subscriber does
    super.dropped()
  }

  override func dispose() {
    super.dispose()
    finishTap()
  }
}

class ClosureTap<Element>: Observer<Element> {
  let onNext: ((Element) -> Void)?
  let onError: ((any Error) -> Void)?
  let onCompleted: (() -> Void)?
  let onDispose: (() -> Void)?

  init(onNext: ((Element) -> Void)?, onError: ((any Error) -> Void)?, onCompleted: (() -> Void)?, onDispose: (() -> Void)?) {
    self.onNext = onNext
    self.onError = onError
    self.onCompleted = onCompleted
    self.onDispose = onDispose
  }

  override func on(_ event: Event<Element>) {
    switch event {
    case .next(let element): onNext?(element)
    case .error(let error): onError?(error)
    case .completed: onCompleted?()
    }
  }

  override func dropped() { onDispose?() }
}

// rx:hand-leaf: closure kept at its concrete type, lent the element by Value.withBorrowed.
final class ValueClosureTap: ClosureTap<Value> {
  /// onNext at its concrete type (through the generic field: a reabstraction thunk per call).
  let onNextValue: ((Value) -> Void)?

  override init(onNext: ((Value) -> Void)?, onError: ((any Error) -> Void)?, onCompleted: (() -> Void)?, onDispose: (() -> Void)?) {
    onNextValue = onNext
    super.init(onNext: onNext, onError: onError, onCompleted: onCompleted, onDispose: onDispose)
  }

  override func on(_ event: Event<Value>) {
    if case .next(let element) = event {
      onNextValue?(element)
      return
    }
    super.on(event)
  }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { Value.withBorrowed(at: element) { onNextValue?($0) } }
  override func dropped() { super.dropped() }
}
