/// Fails at once with `error` (RxSwift's `Observable.error`).
public final class Fail<Element>: Observable<Element> {
  let error: any Error
  public init(_ error: any Error) { self.error = error }
  public override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    observer.on(.error(error))
    return NopDisposable.shared
  }
}

extension Observable {
  public static func error(_ error: any Error) -> Observable<Element> { Fail(error) }
}
