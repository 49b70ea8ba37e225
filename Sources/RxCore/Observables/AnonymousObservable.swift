import Synchronization

/// `Observable.create`: each subscription calls the handler with an observer (the sink)
/// that may be used from any thread; its events are serialized and the grammar enforced.
public final class AnonymousObservable<Element>: Producer<Element> {
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
  public static func create(_ subscribe: @escaping (AnonymousObservableSink<Element>) -> any Disposable)
    -> Observable<Element>
  {
    AnonymousObservable(subscribe)
  }
}

/// The observer handed to a `create` handler. Several threads may emit at once: events go
/// through a `Drain`, so downstream sees one serialized, well-formed sequence.
public final class AnonymousObservableSink<Element>: Sink<Element, Element> {
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
    drain.submit(event) { event in
      if event.isStopEvent {
        self.forwardTerminal(event)
      } else {
        self.forwardOn(event)
      }
    }
    return .accepted
  }

  public override func on(_ event: Event<Element>) { emit(event) }

  public var isStopped: Bool { stopped.load(ordering: .acquiring) }
}
