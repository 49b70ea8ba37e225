/// One notification of a sequence: `next* (error | completed)?`.
public enum Event<Element> {
  case next(Element)
  case error(any Error)
  case completed

  @inlinable public var isStopEvent: Bool {
    if case .next = self { return false }
    return true
  }

  @inlinable public var element: Element? {
    if case .next(let value) = self { return value }
    return nil
  }

  @inlinable public var error: (any Error)? {
    if case .error(let error) = self { return error }
    return nil
  }
}
