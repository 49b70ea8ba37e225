/// The sharing operators, all built on `multicast` + `refCount`.
extension Observable {
  /// Connectable; each connection multicasts through a fresh PublishSubject.
  public func publish() -> ConnectableObservable<Element> {
    multicast { PublishSubject<Element>() }
  }

  /// Connectable; each connection replays its last `bufferSize` elements to late
  /// subscribers (0 behaves as `publish`).
  public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
    if bufferSize == 0 { return publish() }
    return multicast { ReplaySubject<Element>(bufferSize: bufferSize) }
  }

  /// One source subscription shared by all subscribers while any is subscribed.
  public func share() -> Observable<Element> { publish().refCount() }

  /// `share`, replaying the last `bufferSize` elements while connected (RxSwift's
  /// `share(replay:scope: .whileConnected)`).
  public func share(replay bufferSize: Int) -> Observable<Element> {
    replay(bufferSize).refCount()
  }
}

// The same compositions for Value, so that each step picks its Value overload.
extension Observable where Element == Value {
  public func publish() -> ConnectableObservable<Value> {
    multicast { PublishSubject<Value>() }
  }

  public func replay(_ bufferSize: Int) -> ConnectableObservable<Value> {
    if bufferSize == 0 { return publish() }
    return multicast { ReplaySubject<Value>(bufferSize: bufferSize) }
  }

  public func share() -> Observable<Value> { publish().refCount() }

  public func share(replay bufferSize: Int) -> Observable<Value> {
    replay(bufferSize).refCount()
  }
}
