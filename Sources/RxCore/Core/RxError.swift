/// Errors the library itself raises. Raw values match the C API's RX_ERROR_* codes.
public enum RxError: Int32, Error, Sendable {
  case disposed = 1
  case timeout
  case noElements
  case moreThanOneElement
  case argumentOutOfRange
  case overflow
  case unknown
  case typeMismatch
  case unexpectedElement

  public var message: String {
    switch self {
    case .disposed: return "object is disposed"
    case .timeout: return "sequence timeout"
    case .noElements: return "sequence contains no elements"
    case .moreThanOneElement: return "sequence contains more than one element"
    case .argumentOutOfRange: return "argument out of range"
    case .overflow: return "overflow: a bounded queue was full"
    case .unknown: return "unknown error"
    case .typeMismatch: return "value of the wrong kind"
    case .unexpectedElement: return "a completable sequence emitted an element"
    }
  }
}
