/// RxCocoa's Signal trait: a Driver without the replay. It never errors (an error becomes
/// `onErrorJustReturn`, then completion), delivers on the main scheduler, and shares one
/// source subscription among its current subscribers; a late subscriber sees only what comes
/// after it subscribed.
extension Observable {
  public func asSignal(onErrorJustReturn element: Element) -> Observable<Element> {
    catchAndReturn(element)
      .observe(on: MainScheduler.instance)
      .share()
  }
}

// The same composition for Value, so that each step picks its Value overload.
extension Observable where Element == Value {
  public func asSignal(onErrorJustReturn element: Value) -> Observable<Value> {
    catchAndReturn(element)
      .observe(on: MainScheduler.instance)
      .share()
  }
}
