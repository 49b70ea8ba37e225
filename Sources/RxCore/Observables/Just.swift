/// One element, then completed. Synchronous: needs no sink or disposer of its own. Open so
/// that a caller that knows `Element` can subclass it with a specialized `subscribe`.
open class Just<Element>: Observable<Element> {
  public let element: Element
  public init(_ element: Element) { self.element = element }

  @inlinable @inline(__always) open override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    observer.deliverNext(element)
    observer.on(.completed)
    return NopDisposable.shared
  }
}

extension Observable {
  public static func just(_ element: Element) -> Observable<Element> { Just(element) }
}
