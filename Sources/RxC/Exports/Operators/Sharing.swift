import CRxc
@_spi(RxC) import RxCore

// rxc.h section 9, utility and traits: sharing, and the Driver and Signal traits.

// rx:export rx_share: ObservableHandle.make(src.observable.share())
// rx:export rx_share_replay: bufferSize(n, "rx_share_replay").map { ObservableHandle.make(src.observable.share(replay: $0)) }
// rx:export rx_share_forever: bufferSize(n, "rx_share_forever").map { ObservableHandle.make(src.observable.share(replay: $0, scope: .forever)) }
// rx:export rx_publish: connectableHandle(src.observable.publish())
// rx:export rx_replay: bufferSize(n, "rx_replay").map { connectableHandle(src.observable.replay($0)) }
// rx:export rx_replay_all: connectableHandle(src.observable.replayAll())

@c(rx_multicast)
public func rx_multicast(_ src: UnsafeMutablePointer<rx_observable>?, _ subject: UnsafeMutablePointer<rx_subject>?)
  -> UnsafeMutablePointer<rx_observable>?
{
  guard let h = ObservableHandle.from(src, "rx_multicast") else { return nil }
  guard let s = SubjectHandle.from(subject, "rx_multicast") else { return nil }
  guard let core = s.core.subject else {
    setLastError("rx_multicast: subject is \(s.core.name), which never terminates; multicast needs a subject")
    return nil
  }
  guard let hold = SubjectHold(s) else {
    setLastError("rx_multicast: subject was released")
    return nil
  }
  // The closure keeps a C reference to the subject: releasing the caller's last one would
  // dispose it under the connectable.
  return connectableHandle(h.observable.multicastKeepingSubject({ withExtendedLifetime(hold) { core } }))
}

@c(rx_connect)
public func rx_connect(_ connectable: UnsafeMutablePointer<rx_observable>?) -> UnsafeMutablePointer<rx_disposable>? {
  guard let c = connectableOf(connectable, "rx_connect") else { return nil }
  return DisposableHandle.make(c.connect())
}

@c(rx_ref_count)
public func rx_ref_count(_ connectable: UnsafeMutablePointer<rx_observable>?) -> UnsafeMutablePointer<rx_observable>? {
  guard let c = connectableOf(connectable, "rx_ref_count") else { return nil }
  return ObservableHandle.make(c.refCount())
}

@c(rx_as_driver)
public func rx_as_driver(_ src: UnsafeMutablePointer<rx_observable>?, _ onErrorValue: rx_value)
  -> UnsafeMutablePointer<rx_observable>?
{
  cocoaTrait(src, onErrorValue, .driver, "rx_as_driver") { $0.asDriver(onErrorJustReturn: $1) }
}

@c(rx_drive)
public func rx_drive(_ driver: UnsafeMutablePointer<rx_observable>?, _ observer: rx_observer)
  -> UnsafeMutablePointer<rx_disposable>?
{
  subscribe(driver, observer, .driver, "rx_drive", "driver", "rx_as_driver")
}

@c(rx_as_signal)
public func rx_as_signal(_ src: UnsafeMutablePointer<rx_observable>?, _ onErrorValue: rx_value)
  -> UnsafeMutablePointer<rx_observable>?
{
  cocoaTrait(src, onErrorValue, .signal, "rx_as_signal") { $0.asSignal(onErrorJustReturn: $1) }
}

@c(rx_emit)
public func rx_emit(_ signal: UnsafeMutablePointer<rx_observable>?, _ observer: rx_observer)
  -> UnsafeMutablePointer<rx_disposable>?
{
  subscribe(signal, observer, .signal, "rx_emit", "signal", "rx_as_signal")
}

/// rx_as_driver / rx_as_signal: the trait's observable, tagged for its subscribe function.
private func cocoaTrait(
  _ src: UnsafeMutablePointer<rx_observable>?, _ onErrorValue: rx_value, _ trait: ObservableHandle.CocoaTrait,
  _ fn: StaticString, _ make: (Observable<RxValue>, RxValue) -> Observable<RxValue>
) -> UnsafeMutablePointer<rx_observable>? {
  guard let h = ObservableHandle.from(src, fn) else { return nil }
  guard let value = RxValue.from(onErrorValue, fn) else { return nil }
  return ObservableHandle(make(h.observable, value), cocoaTrait: trait).cPointer
}

/// rx_drive / rx_emit: rx_subscribe for observables made by `maker` only.
private func subscribe(
  _ p: UnsafeMutablePointer<rx_observable>?, _ observer: rx_observer, _ trait: ObservableHandle.CocoaTrait,
  _ fn: StaticString, _ arg: StaticString, _ maker: StaticString
) -> UnsafeMutablePointer<rx_disposable>? {
  guard let h = ObservableHandle.from(p, fn, arg) else { return nil }
  guard h.cocoaTrait == trait else {
    setLastError("\(fn): \(arg) is not an observable made by \(maker)")
    return nil
  }
  return subscribeC(h.observable, observer)
}

/// A connectable as an rx_observable that rx_connect and rx_ref_count accept.
func connectableHandle(_ connectable: ConnectableObservable<RxValue>) -> UnsafeMutablePointer<rx_observable> {
  ObservableHandle(connectable, connectable: connectable).cPointer
}

func bufferSize(_ n: UInt, _ fn: StaticString) -> Int? {
  guard n <= UInt(Int32.max) else {
    setLastError("\(fn): buffer size \(n) is too large")
    return nil
  }
  return Int(n)
}

private func connectableOf(_ p: UnsafeMutablePointer<rx_observable>?, _ fn: StaticString)
  -> ConnectableObservable<RxValue>?
{
  guard let h = ObservableHandle.from(p, fn, "connectable") else { return nil }
  guard let c = h.connectable as? ConnectableObservable<RxValue> else {
    setLastError("\(fn): connectable is not an observable made by rx_publish, rx_replay, rx_replay_all or rx_multicast")
    return nil
  }
  return c
}

/// One C reference to a subject handle, held as long as this object lives.
private final class SubjectHold {
  let handle: SubjectHandle

  init?(_ handle: SubjectHandle) {
    guard handle.retainC() else { return nil }
    self.handle = handle
  }

  deinit { handle.releaseC() }
}
