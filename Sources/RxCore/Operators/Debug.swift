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
  public func line(_ what: String) -> String { line(what, "", "") }

  /// The line for `what` + `detail` + `close`, built in one buffer: this runs for every
  /// event, and string interpolation made a temporary string per piece.
  func line(_ what: StaticString, _ detail: String, _ close: StaticString) -> String {
    line(what.utf8Start, what.utf8CodeUnitCount, detail, close)
  }

  func line(_ what: String, _ detail: String, _ close: StaticString) -> String {
    var what = what
    return what.withUTF8 { line($0.baseAddress, $0.count, detail, close) }
  }

  private func line(_ what: UnsafePointer<UInt8>?, _ whatCount: Int, _ detail: String, _ close: StaticString) -> String {
    let now = MonotonicClock.now()
    var label = label, detail = detail
    return label.withUTF8 { label in
      detail.withUTF8 { detail in
        let capacity = 48 + label.count + whatCount + detail.count + close.utf8CodeUnitCount
        return String(unsafeUninitializedCapacity: capacity) { out in
          var n = 0
          func put(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            (out.baseAddress! + n).update(from: base, count: bytes.count)
            n += bytes.count
          }
          func put(_ text: StaticString) { put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)) }
          func put(_ value: Int64, width: Int) {
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: Int64's 19 digits fit
            withUnsafeMutableBytes(of: &digits) { d in
              var v = UInt64(max(0, value)), k = d.count
              repeat {
                k -= 1
                d[k] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
              } while v > 0 || d.count - k < width
              put(UnsafeBufferPointer(rebasing: d.bindMemory(to: UInt8.self)[k...]))
            }
          }
          put(now / 1_000_000_000, width: 0)
          put(".")
          put(now % 1_000_000_000 / 1000, width: 6)
          put(" tid ")
          put(Int64(rxc_thread_tid()), width: 0)
          put(" ")
          put(label)
          put(" -> ")
          put(UnsafeBufferPointer(start: what, count: whatCount))
          put(detail)
          put(close)
          return n
        }
      }
    }
  }

  func log(_ what: StaticString, _ detail: String = "", _ close: StaticString = "") { write(line(what, detail, close)) }

  /// The `do` hooks that write the lines.
  var hooks: DoHooks<Element> {
    DoHooks(
      onNext: { log("next(", describe($0), ")") }, onError: { log("error(", describeError($0), ")") },
      onCompleted: { log("completed") }, onSubscribe: { log("subscribed") }, onDispose: { log("disposed") })
  }
}

extension Observable {
  // rx:value-overload
  /// Writes `log`'s lines for every subscription (see `DebugLog`).
  public func debug(_ log: DebugLog<Element>) -> Observable<Element> { self.do(hooks: log.hooks) }
}
