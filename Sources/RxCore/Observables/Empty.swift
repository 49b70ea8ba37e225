/// Completes at once.
@_spi(RxC) public class Empty<Element>: Observable<Element> {
  public override init() {}
  public override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    observer.on(.completed)
    return NopDisposable.shared
  }
}

// rx:hand-leaf: public (RxC and Swift callers name it); the generator writes internal leaves.
/// `empty` for Value: its subscribe is specialized (a generic class's vtable entry looks up
/// `Event<Element>` on every subscription).
@_spi(RxC) public final class ValueEmpty: Empty<Value> {
  public override init() {}
  public override func subscribe(_ observer: Observer<Value>) -> any Disposable { super.subscribe(observer) }
}

extension Observable {
  public static func empty() -> Observable<Element> { Empty() }
}

extension Observable where Element == Value {
  @_disfavoredOverload public static func empty() -> Observable<Value> { ValueEmpty() }
}
