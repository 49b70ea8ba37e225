import CRxcCore
/// RxSwift's `debug`: a line for each subscription, event and disposal, written as it
/// happens. The line is
///
///     <seconds>.<microseconds> tid <thread id> <label> -> <what>
///
/// with the CLOCK_MONOTONIC time, the kernel's id of the calling thread, and `what` one of
/// `subscribed` (before the source is subscribed), `next(<element>)`, `error(<error>)`,
/// `completed` (each before the event goes downstream) and `disposed` (once, after the
/// source's subscription was disposed, however the subscription ended).
public struct DebugLog<Element> {
  public let label: String
  let describe: (Element) -> String
  let describeError: (any Error) -> String
  let write: (String) -> Void

  public init(
    label: String, describe: @escaping (Element) -> String, describeError: @escaping (any Error) -> String,
    write: @escaping (String) -> Void
  ) {
    self.label = label
    self.describe = describe
    self.describeError = describeError
    self.write = write
  }

  /// The line for `what`, now, on this thread.
  public func line(_ what: String) -> String {
    let now = MonotonicClock.now()
    let micros = String(now % 1_000_000_000 / 1000)
    let padded = String(repeating: "0", count: 6 - micros.count) + micros
    return "\(now / 1_000_000_000).\(padded) tid \(rxc_thread_tid()) \(label) -> \(what)"
  }

  func log(_ what: String) { write(line(what)) }

  /// The `do` hooks that write the lines.
  var hooks: DoHooks<Element> {
    DoHooks(
      onNext: { log("next(\(describe($0)))") }, onError: { log("error(\(describeError($0)))") },
      onCompleted: { log("completed") }, onSubscribe: { log("subscribed") }, onDispose: { log("disposed") })
  }
}

extension Observable {
  /// Writes `log`'s lines for every subscription (see `DebugLog`).
  public func debug(_ log: DebugLog<Element>) -> Observable<Element> { self.do(hooks: log.hooks) }
}

extension Observable where Element == Value {
  public func debug(_ log: DebugLog<Value>) -> Observable<Value> { self.do(hooks: log.hooks) }
}
