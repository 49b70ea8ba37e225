/// Never emits. The subscription ends only when disposed.
@_spi(RxC) public final class Never<Element>: Observable<Element> {
  public override init() {}
  public override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    NopDisposable.shared
  }
}

extension Observable {
  public static func never() -> Observable<Element> { Never() }
}
