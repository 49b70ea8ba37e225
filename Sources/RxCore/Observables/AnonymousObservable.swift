import Synchronization

/// `Observable.create`: each subscription calls the handler with an observer (the sink)
/// that may be used from any thread; its events are serialized and the grammar enforced.
@_spi(RxC) public final class AnonymousObservable<Element>: Producer<Element> {
  public typealias SubscribeHandler = (AnonymousObservableSink<Element>) -> any Disposable
  let handler: SubscribeHandler

  public init(_ handler: @escaping SubscribeHandler) {
    self.handler = handler
    super.init()
  }

  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = AnonymousObservableSink(observer: observer, cancel: cancel)
    let subscription = handler(sink)
    return (sink, subscription)
  }
}

extension Observable {
  /// Each subscription calls `subscribe` with an observer that may be used from any thread;
  /// its events are serialized and the grammar enforced. The returned disposable is
  /// disposed when the subscription ends.
  public static func create(_ subscribe: @escaping (AnyObserver<Element>) -> any Disposable)
    -> Observable<Element>
  {
    AnonymousObservable { sink in subscribe(AnyObserver(eventHandler: { sink.emit($0) })) }
  }

  /// `create` handing the sink itself (its `emit` reports whether an event was taken, and
  /// takes an element by pointer): for the C layer, and for callers that count instructions.
  @_spi(RxC) public static func createWithSink(_ subscribe: @escaping (AnonymousObservableSink<Element>) -> any Disposable)
    -> Observable<Element>
  {
    AnonymousObservable(subscribe)
  }
}

/// The observer handed to a `create` handler. Several threads may emit at once: events go
/// through a `Drain`, so downstream sees one serialized, well-formed sequence.
@_spi(RxC) public final class AnonymousObservableSink<Element>: Sink<Element, Element> {
  public enum Outcome { case accepted, afterStop, afterDispose }

  private let drain = Drain<Event<Element>>()
  /// Set when a terminal event is accepted, at call time, so later calls are dropped even
  /// while the terminal event still waits in the drain queue.
  private let stopped = Atomic<Bool>(false)

  /// Emits `event`, reporting whether it was taken.
  @discardableResult
  public func emit(_ event: Event<Element>) -> Outcome {
    if isDisposed { return stopped.load(ordering: .acquiring) ? .afterStop : .afterDispose }
    if event.isStopEvent {
      if stopped.exchange(true, ordering: .acquiringAndReleasing) { return .afterStop }
    } else if stopped.load(ordering: .acquiring) {
      return .afterStop
    }
    // The sink reached unretained: the caller's reference keeps it for the call (a capture of
    // `self` was retained and released per event).
    let me = Unmanaged.passUnretained(self)
    drain.submit(event) { event in me._withUnsafeGuaranteedRef { $0.deliver(event) } }
    return .accepted
  }

  /// `emit(.next(element))` of the element at `element`: when the drain is free it goes
  /// downstream where it lies (no event built, copied or destroyed); otherwise it is queued
  /// as an event.
  @discardableResult
  public func emitNext(at element: UnsafePointer<Element>) -> Outcome {
    if isDisposed { return stopped.load(ordering: .acquiring) ? .afterStop : .afterDispose }
    if stopped.load(ordering: .acquiring) { return .afterStop }
    let me = Unmanaged.passUnretained(self)
    @inline(__always) func forward() { me._withUnsafeGuaranteedRef { $0.forwardNext(at: element) } }
    drain.submit(.next(element.pointee), inline: forward) { event in me._withUnsafeGuaranteedRef { $0.deliver(event) } }
    return .accepted
  }

  private func deliver(_ event: Event<Element>) {
    if event.isStopEvent { forwardTerminal(event) } else { forwardOn(event) }
  }

  public override func on(_ event: Event<Element>) { emit(event) }

  public var isStopped: Bool { stopped.load(ordering: .acquiring) }
}
