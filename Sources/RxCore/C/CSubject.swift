/// The operations the C API needs from any core subject or relay, for `Value`: each call
/// reaches fully specialized code through one witness-table call.
@_spi(RxC) public protocol AbiSubject: MemberSubject {
  var observable: Observable<Value> { get }
  /// Relays are only ever given `.next` (the C layer refuses the rest first).
  func emit(_ event: Event<Value>) -> SubjectOutcome
  /// `emit(.next(element))` on the subject's inline path (no `Event` or `SubjectOp` built).
  func emitNext(_ element: borrowing Value) -> SubjectOutcome
  func dispose()
  func keepAliveWhileDraining()
  var hasObservers: Bool { get }
  /// Behavior subjects and relays: the current value (throws the stream error or
  /// RxError.disposed). Nil for the other sorts.
  func currentValue() throws -> Value?
}

@_spi(RxC) extension AbiSubject {
  public func currentValue() throws -> Value? { nil }
}

@_spi(RxC) extension PublishSubject: AbiSubject where Element == Value {
  public var observable: Observable<Value> { self }
}

@_spi(RxC) extension ReplaySubject: AbiSubject where Element == Value {
  public var observable: Observable<Value> { self }
}

@_spi(RxC) extension AsyncSubject: AbiSubject where Element == Value {
  public var observable: Observable<Value> { self }
}

@_spi(RxC) extension BehaviorSubject: AbiSubject where Element == Value {
  public var observable: Observable<Value> { self }
  public func currentValue() throws -> Value? { try value() }
}

// What every relay answers the same way: only elements ever reach it.
@_spi(RxC) extension Relay where Subject.Element == Value {
  public var observable: Observable<Value> { self }
  public func emit(_ event: Event<Value>) -> SubjectOutcome {
    guard case .next(let value) = event else { preconditionFailure("a relay takes only elements") }
    return accept(value)
  }
  public func emitNext(_ element: borrowing Value) -> SubjectOutcome { accept(element) }
}

@_spi(RxC) extension PublishRelay: AbiSubject where Element == Value {}

@_spi(RxC) extension ReplayRelay: AbiSubject where Element == Value {}

@_spi(RxC) extension BehaviorRelay: AbiSubject where Element == Value {
  public func currentValue() throws -> Value? { try self.currentValue() as Value }
}
