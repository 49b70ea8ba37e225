/// How a Swift user subscribes: an `ObserverType`, or closures per kind of event.
extension ObservableType {
  /// Subscribes `observer`; the returned disposable ends the subscription.
  @inlinable public func subscribe<O: ObserverType>(_ observer: O) -> any Disposable
  where O.Element == Element {
    asObservable().subscribe(ObserverAdapter(observer) { o, element in o.on(.next(element.pointee)) })
  }

  /// Subscribes closures: `onNext` per element, then `onError` or `onCompleted`. `onDisposed`
  /// runs once, when the subscription ends by a terminal event or by `dispose()`. An error
  /// without `onError` is dropped.
  @inlinable public func subscribe(
    onNext: ((Element) -> Void)? = nil,
    onError: ((any Error) -> Void)? = nil,
    onCompleted: (() -> Void)? = nil,
    onDisposed: (() -> Void)? = nil
  ) -> any Disposable {
    let ended: (any Disposable)? = onDisposed.map { Disposables.create(with: $0) }
    let observer = ClosureObserver(onNext: onNext, onError: onError, onCompleted: onCompleted, ended: ended)
    let subscription = asObservable().subscribe(
      ObserverAdapter(observer) { o, element in o.onNext?(element.pointee) })
    guard let ended else { return subscription }
    return Disposables.create(subscription, ended)
  }
}
