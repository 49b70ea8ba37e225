/// Type erasure for `ObserverType`: any observer, or one closure that takes every event.
public struct AnyObserver<Element>: ObserverType {
  @usableFromInline let handler: (Event<Element>) -> Void

  @inlinable public init(eventHandler: @escaping (Event<Element>) -> Void) { handler = eventHandler }

  @inlinable public init<O: ObserverType>(_ observer: O) where O.Element == Element {
    handler = observer.on
  }

  @inlinable public func on(_ event: Event<Element>) { handler(event) }

  @inlinable public func asObserver() -> AnyObserver<Element> { self }
}

extension ObserverType {
  @inlinable public func asObserver() -> AnyObserver<Element> { AnyObserver(self) }
}
