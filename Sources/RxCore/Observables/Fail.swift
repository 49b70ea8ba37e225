/// Fails at once with `error` (RxSwift's `Observable.error`).
@_spi(RxC) public class Fail<Element>: Observable<Element> {
  let error: any Error
  public init(_ error: any Error) { self.error = error }
  public override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    observer.on(.error(error))
    return NopDisposable.shared
  }
}

// rx:hand-leaf: public (RxC and Swift callers name it); the generator writes internal leaves.
/// `error` for Value: its subscribe is specialized (see `ValueEmpty`).
@_spi(RxC) public final class ValueFail: Fail<Value> {
  public override init(_ error: any Error) { super.init(error) }
  public override func subscribe(_ observer: Observer<Value>) -> any Disposable { super.subscribe(observer) }
}

extension Observable {
  public static func error(_ error: any Error) -> Observable<Element> { Fail(error) }
}

extension Observable where Element == Value {
  @_disfavoredOverload public static func error(_ error: any Error) -> Observable<Value> { ValueFail(error) }
}
