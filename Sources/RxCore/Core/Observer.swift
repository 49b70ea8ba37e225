/// Receives events. Every sink and terminal observer derives from this class, so the event
/// path is one class-method call with no generic-method metadata (RxSwift's generic
/// `ObserverType` witness calls are where most of its time goes).
open class Observer<Element> {
  public init() {}

  /// Delivers one event. Callers guarantee the Rx grammar and serialization.
  open func on(_ event: Event<Element>) {}

  /// Called (instead of an event) when the source drops this observer for good without a
  /// terminal event, e.g. a subject that is disposed. Sinks forward it and dispose.
  open func dropped() {}

  /// True once this observer ignores every further event: it is disposed or stopped, or
  /// everything downstream of it is. Synchronous producers poll it, so that a downstream
  /// `take(1)` ends a long loop at once, even before the subscription is fully set up
  /// (its disposable cannot reach the loop yet).
  open var wantsNoMoreEvents: Bool { false }
}

/// Protocol form, for code that wants to accept any observer.
public protocol ObserverType<Element> {
  associatedtype Element
  func on(_ event: Event<Element>)
}

extension Observer: ObserverType {}

extension ObserverType {
  @inlinable public func onNext(_ element: Element) { on(.next(element)) }
  @inlinable public func onCompleted() { on(.completed) }
  @inlinable public func onError(_ error: any Error) { on(.error(error)) }
}
