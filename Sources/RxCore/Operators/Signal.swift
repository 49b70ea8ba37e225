/// RxCocoa's Signal trait: a Driver without the replay. It never errors (an error becomes
/// `onErrorJustReturn`, then completion), delivers on the main scheduler, and shares one
/// source subscription among its current subscribers; a late subscriber sees only what comes
/// after it subscribed.
extension Observable {
  // rx:value-overload
  public func asSignal(onErrorJustReturn element: Element) -> Observable<Element> {
    catchAndReturn(element)
      .observe(on: MainScheduler.instance)
      .share()
  }
}
