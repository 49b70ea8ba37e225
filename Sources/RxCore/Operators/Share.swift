/// How long `share(replay:scope:)` keeps its subject (RxSwift's `SubjectLifetimeScope`).
public enum ShareScope: Sendable {
  /// A fresh subject per connection: once every subscriber left or the source terminated,
  /// the next subscriber starts afresh (resubscribing the source, with an empty replay).
  case whileConnected
  /// One subject for ever: a reconnection still replays the values of earlier connections,
  /// and once the source terminated, late subscribers get the replay and the terminal event
  /// without the source being subscribed again.
  case forever
}

/// The sharing operators, all built on `multicast` + `refCount`.
extension Observable {
  // rx:value-overload
  /// Connectable; each connection multicasts through a fresh PublishSubject.
  public func publish() -> ConnectableObservable<Element> {
    multicast { PublishSubject<Element>() }
  }

  // rx:value-overload
  /// Connectable; each connection replays its last `bufferSize` elements to late
  /// subscribers (0 behaves as `publish`).
  public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
    if bufferSize == 0 { return publish() }
    return multicast { ReplaySubject<Element>(bufferSize: bufferSize) }
  }

  // rx:value-overload
  /// Connectable; each connection replays all its elements to late subscribers.
  public func replayAll() -> ConnectableObservable<Element> {
    multicast { ReplaySubject<Element>.createUnbounded() }
  }

  // rx:value-overload
  /// One source subscription shared by all subscribers while any is subscribed.
  public func share() -> Observable<Element> { publish().refCount() }

  // rx:value-overload
  /// `share`, replaying the last `bufferSize` elements while connected (RxSwift's
  /// `share(replay:scope: .whileConnected)`).
  public func share(replay bufferSize: Int) -> Observable<Element> {
    replay(bufferSize).refCount()
  }

  // rx:value-overload
  /// `share`, replaying the last `bufferSize` elements, with the subject kept for `scope`.
  public func share(replay bufferSize: Int, scope: ShareScope) -> Observable<Element> {
    if scope == .whileConnected { return share(replay: bufferSize) }
    if bufferSize == 0 { return multicastKeepingSubject({ PublishSubject<Element>() }).refCount() }
    return multicastKeepingSubject({ ReplaySubject<Element>(bufferSize: bufferSize) }).refCount()
  }
}
