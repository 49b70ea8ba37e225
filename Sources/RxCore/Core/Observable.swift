/// A sequence that can be subscribed to. Subclasses: `Producer` (cold, one sink per
/// subscription) and the subjects (hot).
open class Observable<Element>: ObservableType {
  public init() {}

  /// Subscribes `observer`; the returned disposable ends the subscription.
  open func subscribe(_ observer: Observer<Element>) -> any Disposable {
    preconditionFailure("Observable.subscribe is abstract")
  }

  public func asObservable() -> Observable<Element> { self }
}

public protocol ObservableType<Element> {
  associatedtype Element
  func asObservable() -> Observable<Element>
}
