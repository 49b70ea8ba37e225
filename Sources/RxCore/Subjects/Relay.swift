/// What both relays share: a subject that only accepts elements and never terminates
/// (RxSwift's relays). A relay can still be disposed, after which late subscribers get
/// `RxError.disposed` as with subjects.
public class Relay<Subject: SubjectKind>: Observable<Subject.Element>, Cancelable {
  public typealias Element = Subject.Element
  @usableFromInline let subject: Subject

  @inlinable init(_ subject: Subject) {
    self.subject = subject
    super.init()
    Resources.increment()
  }

  deinit { Resources.decrement() }

  /// The subject reached unretained: with `emitNext` inlined here, a plain `subject.` costs
  /// a retain and release of it per element (`make check-metadata-swift`, relays).
  @inlinable @discardableResult
  public final func accept(_ element: Element) -> SubjectOutcome {
    // A local inline func: a closure literal here stayed a call of its own per element.
    @inline(__always) func emit(_ s: Subject) -> SubjectOutcome { s.emitNext(element) }
    return Unmanaged.passUnretained(subject)._withUnsafeGuaranteedRef(emit)
  }

  /// The subject this relay accepts into: its `emitNext` is `accept`, and subscribing to
  /// it is subscribing to the relay (for a caller that dispatches on the concrete subject).
  @inlinable public final var acceptingSubject: Subject { subject }

  /// Unspecialized when reached through the vtable: for `Value`, the subject's own
  /// `subscribe` then goes on specialized.
  public override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    subject.shared.subscribe(observer)
  }

  /// See `SubjectBase.attach`.
  @inlinable
  public final func attach(_ observer: Observer<Element>) -> any Disposable { subject.shared.attach(observer) }
  @inlinable public final func attachOwned(_ observer: Observer<Element>) { subject.attachOwned(observer) }
  @inlinable public final func detachOwned(_ observer: Observer<Element>) { subject.shared.detachOwned(observer) }

  @inlinable public final func dispose() { subject.shared.dispose() }
  /// See `SubjectBase.keepAliveWhileDraining`.
  public final func keepAliveWhileDraining() { subject.shared.drain.keepAliveWhileDraining(self) }
  public final var isDisposed: Bool { subject.shared.isDisposed }
  public final var hasObservers: Bool { subject.shared.hasObservers }
}
