/// Completes at once.
public final class Empty<Element>: Observable<Element> {
  public override init() {}
  public override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    observer.on(.completed)
    return NopDisposable.shared
  }
}

extension Observable {
  public static func empty() -> Observable<Element> { Empty() }
}
