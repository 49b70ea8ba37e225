/// RxCocoa's Driver trait: never errors (an error becomes `onErrorJustReturn`, then
/// completion), delivers on the main scheduler, and shares with a replay of one while
/// connected, so late subscribers see the latest value.
extension Observable {
  public func asDriver(onErrorJustReturn element: Element) -> Observable<Element> {
    catchAndReturn(element)
      .observe(on: MainScheduler.instance)
      .share(replay: 1)
  }
}

// The same composition for Value, so that each step picks its Value overload.
extension Observable where Element == Value {
  public func asDriver(onErrorJustReturn element: Value) -> Observable<Value> {
    catchAndReturn(element)
      .observe(on: MainScheduler.instance)
      .share(replay: 1)
  }
}
