import CRxc
@_spi(RxC) import RxCore

/// An rx_subject: a C handle on a core subject or relay. It is the only class of kind
/// `.subject`, which lets hot entry points reach it from a checked pointer without a cast.
/// Its last rx_release disposes the subject (rxc.h, rx_release).
final class SubjectHandle: Handle {
  /// A `let`, so rx_subject_on_* reach it without retain/release.
  let core: SubjectCore
  /// The same subject when it is a publish subject (or a publish relay's subject, which is
  /// what the relay accepts into): rx_subject_on_next calls it directly
  /// (inlined, no witness call, no SubjectOp when its drain is idle).
  /// Unmanaged: `core` keeps it alive, and a strong load would cost a retain/release pair.
  let publish: Unmanaged<PublishSubject<RxValue>>?
  /// The same for the other sorts: the concrete subject an element goes to (a relay's own
  /// subject, whose `emitNext` is the relay's `accept`), called without a witness call.
  let direct: Direct
  enum Direct {
    case behavior(Unmanaged<BehaviorSubject<RxValue>>)
    case replay(Unmanaged<ReplaySubject<RxValue>>)
    case async(Unmanaged<AsyncSubject<RxValue>>)
    /// The publish sorts: their subject is `publish`.
    case publish

    var replay: Unmanaged<ReplaySubject<RxValue>>? {
      if case .replay(let s) = self { return s }
      return nil
    }
  }
  /// What rx_subject_as_observable lends out. It holds one C reference of its own, dropped
  /// when this subject handle is destroyed; a caller that retained it keeps it usable (it
  /// then behaves as a disposed subject).
  let observableHandle: ObservableHandle
  private let subjectObservable: SubjectObservable

  init(_ core: SubjectCore) {
    self.core = core
    var publish: PublishSubject<RxValue>?
    switch core {
    case .publish(let s): publish = s; direct = .publish
    case .publishRelay(let r): publish = r.acceptingSubject; direct = .publish
    case .behavior(let s): direct = .behavior(Unmanaged.passUnretained(s))
    case .behaviorRelay(let r): direct = .behavior(Unmanaged.passUnretained(r.acceptingSubject))
    case .replay(let s): direct = .replay(Unmanaged.passUnretained(s))
    case .replayRelay(let r): direct = .replay(Unmanaged.passUnretained(r.acceptingSubject))
    case .async(let s): direct = .async(Unmanaged.passUnretained(s))
    }
    self.publish = publish.map { Unmanaged.passUnretained($0) }
    subjectObservable = SubjectObservable(
      core.member, publish: self.publish, replay: direct.replay, holdsSubject: !debugPoison)
    observableHandle = ObservableHandle(subjectObservable, sort: .subject)
    _ = observableHandle.toC()
    super.init(kind: .subject)
  }

  static func make(_ core: SubjectCore) -> UnsafeMutablePointer<rx_subject> {
    SubjectHandle(core).toC().assumingMemoryBound(to: rx_subject.self)
  }

  override func destroyed() {
    // A callback of this subject may be releasing it from inside an rx_subject_on_* call.
    core.keepAliveWhileDraining()
    core.dispose()
    subjectObservable.detach()
    observableHandle.releaseC()
    if debugPoison {
      // A poisoned handle is never deinitialized (Handle keeps its reference for ever), so
      // its subject would never go either; let go of it by hand. Every entry point checks
      // the poison first, so `core` is never read again.
      Unmanaged.passUnretained(core.object).release()
    }
  }

  static func from(_ p: UnsafeRawPointer?, _ fn: StaticString) -> SubjectHandle? {
    guard let p = Validate.pointer(p, .subject, fn, "subject") else { return nil }
    return Unmanaged<SubjectHandle>.fromOpaque(p).takeUnretainedValue()
  }

  /// Runs `body` on the subject behind a checked pointer without retaining it: the caller's
  /// C reference keeps it alive for the call. Nil (rx_last_error set) for a bad pointer.
  @inline(__always)
  static func with<R>(_ p: UnsafeRawPointer?, _ fn: StaticString, _ body: (SubjectHandle) -> R) -> R? {
    guard let p = Validate.pointer(p, .subject, fn, "subject") else { return nil }
    return Unmanaged<SubjectHandle>.fromOpaque(p)._withUnsafeGuaranteedRef(body)
  }
}
