import RxCore

// Concrete RxValue subclasses of the core's synchronous sources: their vtable entries are
// specialized code (a generic class instantiation's are not).

final class RxJust: Just<RxValue> {
  override func subscribe(_ observer: Observer<RxValue>) -> any Disposable { super.subscribe(observer) }
}

final class RxRange: RangeObservable<RxValue> {
  init(start: Int64, count: Int) { super.init(start: start, count: count, make: { .int($0) }) }

  override func subscribe(_ observer: Observer<RxValue>) -> any Disposable { super.subscribe(observer) }

  override func run(_ observer: Observer<RxValue>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    emit(observer, cancel: cancel) { .int($0) }
  }
}
