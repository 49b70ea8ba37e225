/// RxCocoa's Driver trait: never errors (an error becomes `onErrorJustReturn`, then
/// completion), delivers on the main scheduler, and shares with a replay of one while
/// connected, so late subscribers see the latest value.
extension Observable {
  // rx:value-overload
  public func asDriver(onErrorJustReturn element: Element) -> Observable<Element> {
    catchAndReturn(element)
      .observe(on: MainScheduler.instance)
      .share(replay: 1)
  }
}
