@_spi(RxC) import RxCore

/// The core subject or relay behind an rx_subject, at its concrete type: each C call reaches
/// the core's code specialized for `RxValue` through one switch, with no protocol of its own.
enum SubjectCore {
  case publish(PublishSubject<RxValue>)
  case behavior(BehaviorSubject<RxValue>)
  case replay(ReplaySubject<RxValue>)
  case async(AsyncSubject<RxValue>)
  case publishRelay(PublishRelay<RxValue>)
  case behaviorRelay(BehaviorRelay<RxValue>)
  case replayRelay(ReplayRelay<RxValue>)

  var name: StaticString {
    switch self {
    case .publish: return "a publish subject"
    case .behavior: return "a behavior subject"
    case .replay: return "a replay subject"
    case .async: return "an async subject"
    case .publishRelay: return "a publish relay"
    case .behaviorRelay: return "a behavior relay"
    case .replayRelay: return "a replay relay"
    }
  }

  var isRelay: Bool {
    switch self {
    case .publishRelay, .behaviorRelay, .replayRelay: return true
    case .publish, .behavior, .replay, .async: return false
    }
  }

  /// What subscribers attach to: the subject or the relay.
  var member: any MemberSubject {
    switch self {
    case .publish(let s): return s
    case .behavior(let s): return s
    case .replay(let s): return s
    case .async(let s): return s
    case .publishRelay(let r): return r
    case .behaviorRelay(let r): return r
    case .replayRelay(let r): return r
    }
  }

  /// The subject itself; nil for a relay, which never terminates.
  var subject: (any SubjectType<RxValue>)? {
    switch self {
    case .publish(let s): return s
    case .behavior(let s): return s
    case .replay(let s): return s
    case .async(let s): return s
    case .publishRelay, .behaviorRelay, .replayRelay: return nil
    }
  }

  /// The subject an element goes into: the subject itself, or the one a relay accepts into.
  var accepting: SubjectBase<RxValue> {
    switch self {
    case .publish(let s): return s
    case .behavior(let s): return s
    case .replay(let s): return s
    case .async(let s): return s
    case .publishRelay(let r): return r.acceptingSubject
    case .behaviorRelay(let r): return r.acceptingSubject
    case .replayRelay(let r): return r.acceptingSubject
    }
  }

  /// A subject's error or completion (the C layer refuses them for relays first).
  func emitStop(_ event: Event<RxValue>) -> SubjectOutcome {
    switch self {
    case .publish(let s): return s.emit(event)
    case .behavior(let s): return s.emit(event)
    case .replay(let s): return s.emit(event)
    case .async(let s): return s.emit(event)
    case .publishRelay, .behaviorRelay, .replayRelay: preconditionFailure("a relay never terminates")
    }
  }

  /// Behavior subjects and relays: the current value (throws the stream error or
  /// RxError.disposed). Nil for the other sorts.
  func currentValue() throws -> RxValue? {
    switch self {
    case .behavior(let s): return try s.value()
    case .behaviorRelay(let r): return try r.currentValue()
    case .publish, .replay, .async, .publishRelay, .replayRelay: return nil
    }
  }

  func dispose() { accepting.dispose() }

  var hasObservers: Bool { accepting.hasObservers }

  /// Keeps the subject or relay the handle holds alive until its current drain ends.
  func keepAliveWhileDraining() {
    switch self {
    case .publish(let s): s.keepAliveWhileDraining()
    case .behavior(let s): s.keepAliveWhileDraining()
    case .replay(let s): s.keepAliveWhileDraining()
    case .async(let s): s.keepAliveWhileDraining()
    case .publishRelay(let r): r.keepAliveWhileDraining()
    case .behaviorRelay(let r): r.keepAliveWhileDraining()
    case .replayRelay(let r): r.keepAliveWhileDraining()
    }
  }

  /// The subject or relay as an object (for the debug build's poisoned handles).
  var object: AnyObject { member }
}
