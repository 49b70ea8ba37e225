@_spi(RxC) import RxCore

/// The operations the C API needs from any core subject or relay. The conformances are
/// compiled here, for RxValue, so each call reaches fully specialized core code through one
/// witness-table call.
protocol AbiSubject: MemberSubject {
  var observable: Observable<RxValue> { get }
  /// Relays are only ever given `.next` (the C layer refuses the rest first).
  func emit(_ event: Event<RxValue>) -> SubjectOutcome
  /// `emit(.next(element))` on the subject's inline path (no `Event` or `SubjectOp` built).
  func emitNext(_ element: borrowing RxValue) -> SubjectOutcome
  func dispose()
  func keepAliveWhileDraining()
  var hasObservers: Bool { get }
  /// Behavior subjects and relays: the current value (throws the stream error or
  /// RxError.disposed). Nil for the other sorts.
  func currentValue() throws -> RxValue?
}

extension AbiSubject {
  func currentValue() throws -> RxValue? { nil }
}

extension PublishSubject: AbiSubject where Element == RxValue {
  var observable: Observable<RxValue> { self }
}

extension ReplaySubject: AbiSubject where Element == RxValue {
  var observable: Observable<RxValue> { self }
}

extension AsyncSubject: AbiSubject where Element == RxValue {
  var observable: Observable<RxValue> { self }
}

extension BehaviorSubject: AbiSubject where Element == RxValue {
  var observable: Observable<RxValue> { self }
  func currentValue() throws -> RxValue? { try value() }
}

// What every relay answers the same way: only elements ever reach it.
extension Relay where Subject.Element == RxValue {
  var observable: Observable<RxValue> { self }
  func emit(_ event: Event<RxValue>) -> SubjectOutcome {
    guard case .next(let value) = event else { preconditionFailure("a relay takes only elements") }
    return accept(value)
  }
  func emitNext(_ element: borrowing RxValue) -> SubjectOutcome { accept(element) }
}

extension PublishRelay: AbiSubject where Element == RxValue {}

extension ReplayRelay: AbiSubject where Element == RxValue {}

extension BehaviorRelay: AbiSubject where Element == RxValue {
  func currentValue() throws -> RxValue? { try self.currentValue() as RxValue }
}
