import CRxc
import Glibc

/// An rx_error: an immutable code and message. Like value boxes, its Swift reference count
/// is its C reference count, because streams keep errors (a terminated subject replays its
/// error to late subscribers) and hand the same object back out.
@_spi(RxC) public final class ErrorObject: AbiObject, Error, @unchecked Sendable {
  public let code: Int32
  public let message: UnsafeMutablePointer<CChar>

  public init(code: Int32, message: UnsafePointer<CChar>?) {
    self.code = code
    let n = message.map { strlen($0) } ?? 0
    self.message = .allocate(capacity: n + 1)
    if let message { self.message.initialize(from: message, count: n) }
    self.message[n] = 0
    super.init(kind: .error)
    Resources.increment()
  }

  public static func make(code: Int32, _ message: String) -> ErrorObject {
    message.withCString { ErrorObject(code: code, message: $0) }
  }

  deinit {
    magic = AbiObject.deadMagic
    message.deallocate()
    Resources.decrement()
  }

  /// The rx_error for any error a stream carries: ours as is, the core's RxError with its
  /// code, anything else as RX_ERROR_UNKNOWN.
  public static func from(_ error: any Error) -> ErrorObject {
    // The core's errors found by their type first: a failing `as? ErrorObject` on one walks
    // the runtime's whole cast path (~390 instructions, per error a C observer gets), the
    // type check costs ~80.
    let type = type(of: error)
    if type == RxError.self, let e = error as? RxError { return make(code: e.rawValue, e.message) }
    if let e = error as? ErrorObject { return e }
    return make(code: Int32(RX_ERROR_UNKNOWN), "\(error)")
  }

  public var cPointer: UnsafePointer<rx_error> {
    UnsafePointer(Unmanaged.passUnretained(self).toOpaque().assumingMemoryBound(to: rx_error.self))
  }
}

@_spi(RxC) extension ErrorObject {
  public static func fromC(_ p: UnsafePointer<rx_error>?, _ fn: StaticString, _ arg: StaticString = "error")
    -> ErrorObject?
  {
    Validate.handle(UnsafeRawPointer(p), .error, as: ErrorObject.self, fn, arg)
  }
}
