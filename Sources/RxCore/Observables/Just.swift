/// One element, then completed. Synchronous: needs no sink or disposer of its own.
public final class Just<Element>: Observable<Element> {
  let element: Element
  public init(_ element: Element) { self.element = element }

  public override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    observer.on(.next(element))
    observer.on(.completed)
    return NopDisposable.shared
  }
}

extension Observable {
  public static func just(_ element: Element) -> Observable<Element> { Just(element) }
}
