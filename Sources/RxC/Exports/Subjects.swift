import CRxc
@_spi(RxC) import RxCore

// rxc.h section 7: subjects and relays. Validate, convert, call the core.

// rx:export rx_publish_subject_new: SubjectHandle.make(.publish(PublishSubject<RxValue>()))
// rx:export rx_behavior_subject_new: SubjectHandle.make(.behavior(BehaviorSubject(value: initial)))
// rx:export rx_replay_subject_new: replayBufferSize(bufferSize, "rx_replay_subject_new").map { SubjectHandle.make(.replay(ReplaySubject<RxValue>(bufferSize: $0))) }
// rx:export rx_replay_subject_new_unbounded: SubjectHandle.make(.replay(ReplaySubject<RxValue>.createUnbounded()))
// rx:export rx_async_subject_new: SubjectHandle.make(.async(AsyncSubject<RxValue>()))
// rx:export rx_publish_relay_new: SubjectHandle.make(.publishRelay(PublishRelay<RxValue>()))
// rx:export rx_behavior_relay_new: SubjectHandle.make(.behaviorRelay(BehaviorRelay(value: initial)))
// rx:export rx_replay_relay_new: replayBufferSize(bufferSize, "rx_replay_relay_new").map { SubjectHandle.make(.replayRelay(ReplayRelay<RxValue>(bufferSize: $0))) }
// rx:export rx_replay_relay_new_unbounded: SubjectHandle.make(.replayRelay(ReplayRelay<RxValue>.createUnbounded()))

/// A replay buffer_size: at least 1 (larger than Int.max is Int.max).
func replayBufferSize(_ n: UInt, _ fn: StaticString) -> Int? {
  guard n >= 1 else {
    setLastError("\(fn): buffer_size must be at least 1")
    return nil
  }
  return Int(clamping: n)
}

@c(rx_subject_on_next)
public func rx_subject_on_next(_ subject: UnsafeMutablePointer<rx_subject>?, _ value: rx_value) -> rx_status {
  // The hot case, a tail call with no frame of its own: an integer into a live publish
  // subject. One branch per check (combined, they cost 4 more instructions per event).
  // Everything else, checks and messages included, is `subjectOnNext`.
  guard value.kind == RX_INT, let p = UnsafeRawPointer(subject) else { return subjectOnNext(subject, value) }
  guard UInt(bitPattern: p) & 15 == 0,
    p.load(fromByteOffset: AbiObject.magicOffset, as: UInt64.self) == AbiObject.liveMagic,
    p.load(fromByteOffset: AbiObject.kindOffset, as: UInt32.self) == ObjectKind.subject.rawValue
  else { return subjectOnNext(subject, value) }
  let h = Unmanaged<SubjectHandle>.fromOpaque(p)
  guard let publish = h._withUnsafeGuaranteedRef({ $0.publish }) else { return intoOtherKind(h, value.i) }
  return publish._withUnsafeGuaranteedRef { intoPublish($0, value.i) }
}

/// An integer into a publish subject: `emitNext` inlined here, in the one frame of the path
/// (`rx_subject_on_next` jumps here).
@inline(never)
private func intoPublish(_ publish: PublishSubject<RxValue>, _ i: Int64) -> rx_status {
  let outcome = publish.emitNext(.int(i))
  return outcome == .afterDispose ? status(outcome, "rx_subject_on_next") : RX_OK
}

/// An integer into a subject of another kind than publish.
@inline(never)
private func intoOtherKind(_ h: Unmanaged<SubjectHandle>, _ i: Int64) -> rx_status {
  @inline(__always) func emit(_ h: SubjectHandle) -> SubjectOutcome { emitNextDirect(h, .int(i)) }  // (a closure stayed a call)
  let outcome = h._withUnsafeGuaranteedRef(emit)
  return outcome == .accepted ? RX_OK : status(outcome, "rx_subject_on_next")
}

/// `emitNext` on the concrete subject of a handle that is not a publish subject's.
@inline(__always)
private func emitNextDirect(_ h: SubjectHandle, _ v: borrowing RxValue) -> SubjectOutcome {
  switch h.direct {
  case .behavior(let s): return s._withUnsafeGuaranteedRef { $0.emitNext(v) }
  case .replay(let s): return s._withUnsafeGuaranteedRef { $0.emitNext(v) }
  case .async(let s): return s._withUnsafeGuaranteedRef { $0.emitNext(v) }
  case .publish: return h.publish.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.emitNext(v) }
  }
}

@inline(never)
private func subjectOnNext(_ subject: UnsafeMutablePointer<rx_subject>?, _ value: rx_value) -> rx_status {
  guard let p = Validate.pointer(subject, .subject, "rx_subject_on_next", "subject") else { return invalid(subject) }
  let h = Unmanaged<SubjectHandle>.fromOpaque(p)
  return RxValue.lend(value, "rx_subject_on_next", plain: { emitNext(h, $0) }, boxed: { emitNext(h, at: $0) }) ?? RX_EINVAL
}

/// `emitNext` of the value at `p`, read where it is (only the pointer is captured: a value
/// captured by these closures would be copied, its box retained). For boxed values only: a
/// plain value through this path costs the kinds that keep it more (behavior +22, replay +34
/// instructions per event, measured), so plain values keep `emitNextDirect`.
@inline(__always)
private func emitNext(_ h: Unmanaged<SubjectHandle>, at p: UnsafePointer<RxValue>) -> rx_status {
  @inline(__always) func emit(_ h: SubjectHandle) -> SubjectOutcome {  // (a closure stayed a call)
    if let publish = h.publish { return publish._withUnsafeGuaranteedRef { $0.emitNext(at: p) } }
    switch h.direct {
    case .behavior(let s): return s._withUnsafeGuaranteedRef { $0.emitNext(at: p) }
    case .replay(let s): return s._withUnsafeGuaranteedRef { $0.emitNext(at: p) }
    case .async(let s): return s._withUnsafeGuaranteedRef { $0.emitNext(at: p) }
    case .publish: return h.publish.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.emitNext(at: p) }
    }
  }
  let outcome = h._withUnsafeGuaranteedRef(emit)
  return outcome == .afterDispose ? status(outcome, "rx_subject_on_next") : RX_OK  // no call per event
}

/// No retain/release: the caller's reference keeps the handle, and the handle the subject,
/// alive for the call.
@inline(__always)
private func emitNext(_ h: Unmanaged<SubjectHandle>, _ v: RxValue) -> rx_status {
  let outcome = h._withUnsafeGuaranteedRef { h in
    if let publish = h.publish { return publish._withUnsafeGuaranteedRef { $0.emitNext(v) } }
    return emitNextDirect(h, v)
  }
  return outcome == .afterDispose ? status(outcome, "rx_subject_on_next") : RX_OK  // no call per event
}

@c(rx_subject_on_error)
public func rx_subject_on_error(_ subject: UnsafeMutablePointer<rx_subject>?, _ error: UnsafePointer<rx_error>?)
  -> rx_status
{
  guard let h = SubjectHandle.from(subject, "rx_subject_on_error") else { return invalid(subject) }
  guard let e = ErrorObject.fromC(error, "rx_subject_on_error") else { return invalid(error) }
  if h.core.isRelay { return fail(RX_ESTATE, "rx_subject_on_error: \(h.core.name) never terminates") }
  return status(h.core.emitStop(.error(e)), "rx_subject_on_error")
}

@c(rx_subject_on_completed)
public func rx_subject_on_completed(_ subject: UnsafeMutablePointer<rx_subject>?) -> rx_status {
  guard let h = SubjectHandle.from(subject, "rx_subject_on_completed") else { return invalid(subject) }
  if h.core.isRelay { return fail(RX_ESTATE, "rx_subject_on_completed: \(h.core.name) never terminates") }
  return status(h.core.emitStop(.completed), "rx_subject_on_completed")
}

@c(rx_subject_as_observable)
public func rx_subject_as_observable(_ subject: UnsafeMutablePointer<rx_subject>?)
  -> UnsafeMutablePointer<rx_observable>?
{
  SubjectHandle.from(subject, "rx_subject_as_observable")?.observableHandle.borrowedPointer
}

@c(rx_subject_value)
public func rx_subject_value(
  _ subject: UnsafeMutablePointer<rx_subject>?, _ out: UnsafeMutablePointer<rx_value>?,
  _ outError: UnsafeMutablePointer<UnsafeMutablePointer<rx_error>?>?
) -> rx_status {
  guard let h = SubjectHandle.from(subject, "rx_subject_value") else { return invalid(subject) }
  guard let out else { return fail(RX_EINVAL, "rx_subject_value: out is NULL") }
  switch h.core {
  case .behavior, .behaviorRelay: break
  default:
    return fail(RX_EHANDLE, "rx_subject_value: subject is \(h.core.name), expected a behavior subject or relay")
  }
  out.pointee = RxValue.none.c
  outError?.pointee = nil
  do {
    guard let v = try h.core.currentValue() else { return RX_EHANDLE }
    out.pointee = v.ownedC
    return RX_OK
  } catch RxError.disposed {
    return fail(RX_EDISPOSED, "rx_subject_value: the subject is disposed")
  } catch {
    let e = ErrorObject.from(error)
    outError?.pointee = UnsafeMutablePointer(mutating: Unmanaged.passRetained(e).toOpaque()
      .assumingMemoryBound(to: rx_error.self))
    return fail(RX_ESTREAM, "rx_subject_value: the subject ended with an error")
  }
}

@c(rx_subject_has_observers)
public func rx_subject_has_observers(_ subject: UnsafeMutablePointer<rx_subject>?) -> Bool {
  SubjectHandle.with(subject, "rx_subject_has_observers") { $0.core.hasObservers } ?? false
}

@c(rx_subject_dispose)
public func rx_subject_dispose(_ subject: UnsafeMutablePointer<rx_subject>?) -> rx_status {
  guard let h = SubjectHandle.from(subject, "rx_subject_dispose") else { return invalid(subject) }
  h.core.dispose()
  return RX_OK
}

@inline(never)
private func status(_ outcome: SubjectOutcome, _ fn: StaticString) -> rx_status {
  switch outcome {
  case .accepted, .ignoredAfterStop: return RX_OK
  case .afterDispose: return fail(RX_EDISPOSED, "\(fn): the subject is disposed")
  }
}
