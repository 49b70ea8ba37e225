import Synchronization

/// A connectable observable (RxSwift's `multicast(makeSubject:)`): subscribers subscribe to
/// the current subject; `connect` subscribes the source into it. Each connection gets a
/// fresh subject: once the source terminates or the connection is disposed, the next
/// subscriber or connect makes a new one. With `keepsSubject` (RxSwift's `multicast(_:)`
/// of one subject, and `share(scope: .forever)`) the first subject serves every connection,
/// so after a terminal event late subscribers get what that subject gives them.
///
/// Unlike RxSwift, the source is never subscribed while a lock is held: the
/// lock only decides who connects, and a connect racing with a disconnect is settled by the
/// connection's single-assignment disposable.
public class ConnectableObservable<Element>: Observable<Element> {
  let source: Observable<Element>
  let makeSubject: () -> any SubjectType<Element>
  let keepsSubject: Bool

  private struct State {
    var subject: (any SubjectType<Element>)?
    var connection: Connection<Element>?
    /// A kept subject got a terminal event from a connection: connecting again would only
    /// subscribe the source into a subject that ignores it.
    var subjectTerminated = false
  }
  private let state = Mutex(State())

  public init(
    source: Observable<Element>, keepsSubject: Bool = false, makeSubject: @escaping () -> any SubjectType<Element>
  ) {
    self.source = source
    self.keepsSubject = keepsSubject
    self.makeSubject = makeSubject
    super.init()
  }

  /// The subject of the current (or next) connection.
  private func currentSubject(_ s: inout State) -> any SubjectType<Element> {
    if let subject = s.subject { return subject }
    let subject = makeSubject()
    s.subject = subject
    return subject
  }

  public override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    let subject = state.withLock { currentSubject(&$0) }
    return subscribe(observer, to: subject)
  }

  /// Subscribes `observer` to `subject` (the Value leaf calls the subject's concrete class).
  func subscribe(_ observer: Observer<Element>, to subject: any SubjectType<Element>) -> any Disposable {
    subject.asObservable().subscribe(observer)
  }

  /// Connects the source to the subject; while connected, returns the same connection.
  @discardableResult
  public func connect() -> any Cancelable {
    let (connection, isNew): (Connection<Element>?, Bool) = state.withLock { s in
      if let c = s.connection { return (c, false) }
      if s.subjectTerminated { return (nil, false) }
      let c = makeConnection(subject: currentSubject(&s))
      s.connection = c
      return (c, true)
    }
    guard let connection else {
      let ended = BooleanDisposable()
      ended.dispose()
      return ended
    }
    if isNew {
      connection.subscription.trySet(source.subscribe(connection))
    }
    return connection
  }

  /// A connection feeding `subject` (a hook for the Value leaf).
  func makeConnection(subject: any SubjectType<Element>) -> Connection<Element> {
    Connection(parent: self, subject: subject)
  }

  /// Called once per connection when it ends: the next connect gets a fresh subject.
  fileprivate func connectionEnded(_ connection: Connection<Element>, terminated: Bool) {
    state.withLock { s in
      if s.connection === connection {
        s.connection = nil
        if !keepsSubject { s.subject = nil } else if terminated { s.subjectTerminated = true }
      }
    }
  }
}

/// One connection: forwards source events into its subject; ends on a terminal event or
/// dispose.
class Connection<Element>: Observer<Element>, Cancelable {
  /// Not strong: the connectable does not live on through its connections.
  private let parent: UnownedRef<ConnectableObservable<Element>>
  private let subject: any SubjectType<Element>
  let subscription = SingleAssignmentDisposable()
  private let disposed = Atomic<Bool>(false)

  init(parent: ConnectableObservable<Element>, subject: any SubjectType<Element>) {
    self.parent = UnownedRef(parent)
    self.subject = subject
    super.init()
    Resources.increment()
  }

  deinit { Resources.decrement() }

  var isDisposed: Bool { disposed.load(ordering: .acquiring) }

  override func on(_ event: Event<Element>) {
    if isDisposed { return }
    if event.isStopEvent {
      end(terminated: true)
    }
    feed(event)
  }

  /// Hands `event` to the subject (the Value leaf calls the subject's concrete class).
  func feed(_ event: Event<Element>) { subject.on(event) }

  func dispose() {
    end(terminated: false)
    subscription.dispose()
  }

  private func end(terminated: Bool) {
    if disposed.exchange(true, ordering: .acquiringAndReleasing) { return }
    parent.load()?.connectionEnded(self, terminated: terminated)
  }
}

extension Observable {
  // rx:value-overload map=ConnectableObservable:ValueConnectableObservable
  /// A connectable observable that multicasts through a fresh subject per connection.
  public func multicast(_ makeSubject: @escaping () -> any SubjectType<Element>)
    -> ConnectableObservable<Element>
  {
    ConnectableObservable(source: self, makeSubject: makeSubject)
  }

  // rx:value-overload map=ConnectableObservable:ValueConnectableObservable
  /// A connectable observable that multicasts through `subject`, the same one for every
  /// connection (RxSwift's `multicast(_:)`).
  public func multicast(_ subject: any SubjectType<Element>) -> ConnectableObservable<Element> {
    ConnectableObservable(source: self, keepsSubject: true, makeSubject: { subject })
  }

  // rx:value-overload map=ConnectableObservable:ValueConnectableObservable
  /// `multicast(makeSubject)` with the first subject kept for every connection.
  public func multicastKeepingSubject(_ makeSubject: @escaping () -> any SubjectType<Element>)
    -> ConnectableObservable<Element>
  {
    ConnectableObservable(source: self, keepsSubject: true, makeSubject: makeSubject)
  }
}

// rx:hand-leaf: subscribes to the concrete subject class directly (no protocol call per event).
// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueConnectableObservable: ConnectableObservable<Value> {
  override func subscribe(_ observer: Observer<Value>) -> any Disposable { super.subscribe(observer) }

  // A subject's own `subscribe`, reached through its vtable, runs its generic body.
  override func subscribe(_ observer: Observer<Value>, to subject: any SubjectType<Value>) -> any Disposable {
    if let publish = Self.concrete(subject, PublishSubject<Value>.self) { return publish.attach(observer) }
    if let replay = Self.concrete(subject, ReplaySubject<Value>.self) { return replay.attach(observer) }
    return super.subscribe(observer, to: subject)
  }

  override func connect() -> any Cancelable { super.connect() }

  /// `subject` as `type`, if it is exactly that class. Compares the object's class (an `as?`
  /// from the protocol goes through the runtime's conformance lookup).
  static func concrete<S: AnyObject>(_ subject: any SubjectType<Value>, _ type: S.Type) -> S? {
    let object = subject as AnyObject
    return ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(type) ? unsafeDowncast(object, to: type) : nil
  }

  override func makeConnection(subject: any SubjectType<Value>) -> Connection<Value> {
    ValueConnection(parent: self, subject: subject)
  }
}

// rx:hand-leaf: feeds the concrete subject class directly (no protocol call per event).
final class ValueConnection: Connection<Value> {
  // The subject as its concrete class, when it is one of these: a call through the
  // protocol would run the subject's generic body. Unmanaged: `subject` keeps it, and a
  // strong copy per event would be a retain/release pair.
  private let publish: Unmanaged<PublishSubject<Value>>?
  private let replay: Unmanaged<ReplaySubject<Value>>?

  override init(parent: ConnectableObservable<Value>, subject: any SubjectType<Value>) {
    publish = ValueConnectableObservable.concrete(subject, PublishSubject<Value>.self).map { Unmanaged.passUnretained($0) }
    replay = ValueConnectableObservable.concrete(subject, ReplaySubject<Value>.self).map { Unmanaged.passUnretained($0) }
    super.init(parent: parent, subject: subject)
  }

  override func on(_ event: Event<Value>) { super.on(event) }
  override var takesNextByPointer: Bool { true }
  /// Into the concrete subject where the element lies: a publish subject keeps nothing and a
  /// replay subject copies it once, into its buffer (the copy made here for an event was a
  /// retain and a release of a boxed element per event).
  override func onNext(at element: UnsafePointer<Value>) {
    if isDisposed { return }
    // Local inline funcs, not closure literals: those were left calls of their own.
    @inline(__always) func intoPublish(_ s: PublishSubject<Value>) { _ = s.emitNext(at: element) }
    @inline(__always) func intoReplay(_ s: ReplaySubject<Value>) { _ = s.emitNext(at: element) }
    if let publish { return publish._withUnsafeGuaranteedRef(intoPublish) }
    if let replay { return replay._withUnsafeGuaranteedRef(intoReplay) }
    super.on(.next(Value.copy(at: element)))
  }
  override func dispose() { super.dispose() }
  override var isDisposed: Bool { super.isDisposed }

  override func feed(_ event: Event<Value>) {
    if let publish {
      publish._withUnsafeGuaranteedRef { $0.on(event) }
    } else if let replay {
      replay._withUnsafeGuaranteedRef { $0.on(event) }
    } else {
      super.feed(event)
    }
  }
}
