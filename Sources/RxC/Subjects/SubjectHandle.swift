import CRxc
@_spi(RxC) import RxCore

/// An rx_subject: a C handle on a core subject or relay. It is the only class of kind
/// `.subject`, which lets hot entry points reach it from a checked pointer without a cast.
/// Its last rx_release disposes the subject (rxc.h, rx_release).
final class SubjectHandle: Handle {
  enum Sort {
    case publish, behavior, replay, async, publishRelay, behaviorRelay, replayRelay

    var isRelay: Bool { self == .publishRelay || self == .behaviorRelay || self == .replayRelay }

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
  }

  let sort: Sort
  /// A `let`, so rx_subject_on_* reach it without retain/release.
  let core: any AbiSubject
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
    case other

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

  init(_ sort: Sort, _ core: any AbiSubject) {
    self.sort = sort
    self.core = core
    publish = ((core as? PublishSubject<RxValue>) ?? (core as? PublishRelay<RxValue>)?.acceptingSubject)
      .map { Unmanaged.passUnretained($0) }
    if let s = (core as? BehaviorSubject<RxValue>) ?? (core as? BehaviorRelay<RxValue>)?.acceptingSubject {
      direct = .behavior(Unmanaged.passUnretained(s))
    } else if let s = (core as? ReplaySubject<RxValue>) ?? (core as? ReplayRelay<RxValue>)?.acceptingSubject {
      direct = .replay(Unmanaged.passUnretained(s))
    } else if let s = core as? AsyncSubject<RxValue> {
      direct = .async(Unmanaged.passUnretained(s))
    } else {
      direct = .other
    }
    subjectObservable = SubjectObservable(core, publish: publish, replay: direct.replay, holdsSubject: !debugPoison)
    observableHandle = ObservableHandle(subjectObservable, sort: .subject)
    _ = observableHandle.toC()
    super.init(kind: .subject)
  }

  static func make(_ sort: Sort, _ core: any AbiSubject) -> UnsafeMutablePointer<rx_subject> {
    SubjectHandle(sort, core).toC().assumingMemoryBound(to: rx_subject.self)
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
      Unmanaged.passUnretained(core as AnyObject).release()
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
