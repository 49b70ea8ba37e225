/// Every hook of RxSwift's `do(onNext:afterNext:onError:afterError:onCompleted:
/// afterCompleted:onSubscribe:onSubscribed:onDispose:)`; each may be nil. The hooks cannot
/// fail the stream.
public struct DoHooks<Element> {
  public var onNext: ((Element) -> Void)?
  public var afterNext: ((Element) -> Void)?
  public var onError: ((any Error) -> Void)?
  public var afterError: ((any Error) -> Void)?
  public var onCompleted: (() -> Void)?
  public var afterCompleted: (() -> Void)?
  public var onSubscribe: (() -> Void)?
  public var onSubscribed: (() -> Void)?
  public var onDispose: (() -> Void)?

  public init(
    onNext: ((Element) -> Void)? = nil, afterNext: ((Element) -> Void)? = nil,
    onError: ((any Error) -> Void)? = nil, afterError: ((any Error) -> Void)? = nil,
    onCompleted: (() -> Void)? = nil, afterCompleted: (() -> Void)? = nil,
    onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil, onDispose: (() -> Void)? = nil
  ) {
    self.onNext = onNext
    self.afterNext = afterNext
    self.onError = onError
    self.afterError = afterError
    self.onCompleted = onCompleted
    self.afterCompleted = afterCompleted
    self.onSubscribe = onSubscribe
    self.onSubscribed = onSubscribed
    self.onDispose = onDispose
  }
}

extension Observable {
  /// Runs the hooks around each subscription and event, in RxSwift's order: `onSubscribe`,
  /// the source's subscription, `onSubscribed`; for an event its `on` hook, the event
  /// downstream, its `after` hook (then, for a terminal event, the end of the
  /// subscription); `onDispose` once, after the source's subscription was disposed, however
  /// the subscription ends.
  public func `do`(hooks: DoHooks<Element>) -> Observable<Element> {
    DoHooksProducer(source: self, hooks)
  }
}

extension Observable where Element == Value {
  public func `do`(hooks: DoHooks<Value>) -> Observable<Value> {
    ValueDoHooksProducer(source: self, hooks: hooks, nextHooks: nil)
  }

  /// `do` whose element hooks are `nextHooks` (the `onNext`/`afterNext` closures of `hooks`
  /// are not called): for hooks that are not Swift closures (the C layer's functions).
  @_spi(RxC) public func `do`(hooks: DoHooks<Value>, nextHooks: ValueNextHooks) -> Observable<Value> {
    ValueDoHooksProducer(source: self, hooks: hooks, nextHooks: nextHooks)
  }
}

// rx:hand-leaf: not a leaf: the by-pointer element hooks of `do` for Value, subclassed by callers.
/// `do`'s element hooks for `Value` as one object, called with the element where it is: no
/// closure, reabstraction thunk or copy per element (a closure stored in the generic
/// `DoHooks` is reached through a thunk each way).
@_spi(RxC) open class ValueNextHooks {
  public init() {}
  /// Before the element goes downstream.
  open func onNext(at element: UnsafePointer<Value>) {}
  /// After it went.
  open func afterNext(at element: UnsafePointer<Value>) {}
}

class DoHooksProducer<Element>: UnaryProducer<Element, Element, DoHooks<Element>> {
  override func makeSink(_ observer: Observer<Element>, cancel: any Cancelable) -> Sink<Element, Element> {
    DoHooksSink(hooks: parameter, observer: observer, cancel: cancel)
  }
}

class DoHooksSink<Element>: Sink<Element, Element> {
  let hooks: DoHooks<Element>

  init(hooks: DoHooks<Element>, observer: Observer<Element>, cancel: any Cancelable) {
    self.hooks = hooks
    super.init(observer: observer, cancel: cancel)
  }

  /// Subscribes the source between the subscribe hooks.
  final override func subscribe(to source: Observable<Element>) -> any Disposable {
    hooks.onSubscribe?()
    let subscription = source.subscribe(self)
    hooks.onSubscribed?()
    guard let onDispose = hooks.onDispose else { return subscription }
    return BinaryDisposable(subscription, AnonymousDisposable(onDispose))
  }

  override func on(_ event: Event<Element>) {
    if isDisposed { return }
    switch event {
    case .next(let element): next(element)
    case .error(let error):
      hooks.onError?(error)
      forwardOn(event)
      hooks.afterError?(error)
      dispose()
    case .completed:
      hooks.onCompleted?()
      forwardOn(event)
      hooks.afterCompleted?()
      dispose()
    }
  }

  /// A `.next` event's body (the Value leaf's `onNext(at:)` runs it: no `Event`).
  final func next(_ element: Element) {
    if isDisposed { return }
    hooks.onNext?(element)
    forwardNext(element)
    hooks.afterNext?(element)
  }
}

// rx:hand-leaf: calls ValueNextHooks with the element by pointer, a path only Value has.
// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueDoHooksProducer: DoHooksProducer<Value> {
  let nextHooks: ValueNextHooks?

  init(source: Observable<Value>, hooks: DoHooks<Value>, nextHooks: ValueNextHooks?) {
    self.nextHooks = nextHooks
    super.init(source: source, hooks)
  }

  override func makeSink(_ observer: Observer<Value>, cancel: any Cancelable) -> Sink<Value, Value> {
    ValueDoHooksSink(hooks: parameter, nextHooks: nextHooks, observer: observer, cancel: cancel)
  }

  override func run(_ observer: Observer<Value>, cancel: any Cancelable) -> (sink: any Disposable, subscription: any Disposable) { super.run(observer, cancel: cancel) }
}

// rx:hand-leaf: calls ValueNextHooks with the element by pointer, a path only Value has.
final class ValueDoHooksSink: DoHooksSink<Value> {
  let nextHooks: ValueNextHooks?
  /// `nextHooks`, reached without a retain per element (the field above keeps it).
  let nextHooksRef: Unmanaged<ValueNextHooks>?

  init(hooks: DoHooks<Value>, nextHooks: ValueNextHooks?, observer: Observer<Value>, cancel: any Cancelable) {
    self.nextHooks = nextHooks
    nextHooksRef = nextHooks.map(Unmanaged.passUnretained)
    super.init(hooks: hooks, observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Value>) {
    if nextHooksRef != nil, case .next(let element) = event {
      return _withUnprotectedUnsafePointer(to: element) { onNext(at: $0) }
    }
    super.on(event)
  }

  override var takesNextByPointer: Bool { true }

  override func onNext(at element: UnsafePointer<Value>) {
    guard let hooks = nextHooksRef else { return next(element.pointee) }
    if isDisposed { return }
    hooks._withUnsafeGuaranteedRef { $0.onNext(at: element) }
    forwardNext(at: element)
    hooks._withUnsafeGuaranteedRef { $0.afterNext(at: element) }
  }
}
