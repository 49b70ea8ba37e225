import CRxc
@_spi(RxC) import RxCore

// rxc.h section 9, utility and traits: sharing, and the Driver and Signal traits.

// rx:export rx_share: ObservableHandle.make(src.observable.share())
// rx:export rx_share_replay: bufferSize(n, "rx_share_replay").map { ObservableHandle.make(src.observable.share(replay: $0)) }
// rx:export rx_share_forever: bufferSize(n, "rx_share_forever").map { ObservableHandle.make(src.observable.share(replay: $0, scope: .forever)) }
// rx:export rx_publish: connectableHandle(src.observable.publish())
// rx:export rx_replay: bufferSize(n, "rx_replay").map { connectableHandle(src.observable.replay($0)) }
// rx:export rx_replay_all: connectableHandle(src.observable.replayAll())
// rx:export rx_as_driver: ObservableHandle(src.observable.asDriver(onErrorJustReturn: onErrorValue), cocoaTrait: .driver).cPointer
// rx:export rx_drive: subscribeTrait(driver, observer, .driver, "rx_drive", "driver", "rx_as_driver")
// rx:export rx_as_signal: ObservableHandle(src.observable.asSignal(onErrorJustReturn: onErrorValue), cocoaTrait: .signal).cPointer
// rx:export rx_emit: subscribeTrait(signal, observer, .signal, "rx_emit", "signal", "rx_as_signal")

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

/// rx_drive / rx_emit: rx_subscribe for observables made by `maker` only.
func subscribeTrait(
  _ h: ObservableHandle, _ observer: rx_observer, _ trait: ObservableHandle.CocoaTrait,
  _ fn: StaticString, _ arg: StaticString, _ maker: StaticString
) -> UnsafeMutablePointer<rx_disposable>? {
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
