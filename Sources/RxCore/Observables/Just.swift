/// One element, then completed. Synchronous: needs no sink or disposer of its own. Open so
/// that a caller that knows `Element` can subclass it with a specialized `subscribe`.
@_spi(RxC) open class Just<Element>: Observable<Element> {
  /// Set only while nothing else refers to the object (a `ValueJust` spare being reused).
  public final internal(set) var element: Element
  public init(_ element: Element) { self.element = element }

  @inlinable @inline(__always) open override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    observer.deliverNext(element)
    observer.on(.completed)
    return NopDisposable.shared
  }
}

extension Observable {
  public static func just(_ element: Element) -> Observable<Element> {
    // For Value (checked once per call where `Element` is not known), the specialized leaf,
    // this thread's spare if it has one.
    if Element.self == Value.self {
      return unsafeBitCast(ValueJust.make(unsafeBitCast(element, to: Value.self)), to: Observable<Element>.self)
    }
    return Just(element)
  }
}
