import Synchronization

/// A connectable observable (RxSwift's `multicast(makeSubject:)`): subscribers subscribe to
/// the current subject; `connect` subscribes the source into it. Each connection gets a
/// fresh subject: once the source terminates or the connection is disposed, the next
/// subscriber or connect makes a new one.
///
/// Unlike RxSwift, the source is never subscribed while a lock is held: the
/// lock only decides who connects, and a connect racing with a disconnect is settled by the
/// connection's single-assignment disposable.
public final class ConnectableObservable<Element>: Observable<Element> {
  let source: Observable<Element>
  let makeSubject: () -> any SubjectType<Element>

  private struct State {
    var subject: (any SubjectType<Element>)?
    var connection: Connection<Element>?
  }
  private let state = Mutex(State())

  public init(source: Observable<Element>, makeSubject: @escaping () -> any SubjectType<Element>) {
    self.source = source
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
    return subject.asObservable().subscribe(observer)
  }

  /// Connects the source to the subject; while connected, returns the same connection.
  @discardableResult
  public func connect() -> any Cancelable {
    let (connection, isNew): (Connection<Element>, Bool) = state.withLock { s in
      if let c = s.connection { return (c, false) }
      let c = Connection(parent: self, subject: currentSubject(&s))
      s.connection = c
      return (c, true)
    }
    if isNew {
      connection.subscription.trySet(source.subscribe(connection))
    }
    return connection
  }

  /// Called once per connection when it ends: the next connect gets a fresh subject.
  fileprivate func connectionEnded(_ connection: Connection<Element>) {
    state.withLock { s in
      if s.connection === connection {
        s.connection = nil
        s.subject = nil
      }
    }
  }
}

/// One connection: forwards source events into its subject; ends on a terminal event or
/// dispose.
final class Connection<Element>: Observer<Element>, Cancelable {
  private weak var parent: ConnectableObservable<Element>?
  private let subject: any SubjectType<Element>
  let subscription = SingleAssignmentDisposable()
  private let disposed = Atomic<Bool>(false)

  init(parent: ConnectableObservable<Element>, subject: any SubjectType<Element>) {
    self.parent = parent
    self.subject = subject
    super.init()
    Resources.increment()
  }

  deinit { Resources.decrement() }

  var isDisposed: Bool { disposed.load(ordering: .acquiring) }

  override func on(_ event: Event<Element>) {
    if isDisposed { return }
    if event.isStopEvent {
      end()
    }
    subject.on(event)
  }

  func dispose() {
    end()
    subscription.dispose()
  }

  private func end() {
    if disposed.exchange(true, ordering: .acquiringAndReleasing) { return }
    parent?.connectionEnded(self)
  }
}

extension Observable {
  /// A connectable observable that multicasts through a fresh subject per connection.
  public func multicast(_ makeSubject: @escaping () -> any SubjectType<Element>)
    -> ConnectableObservable<Element>
  {
    ConnectableObservable(source: self, makeSubject: makeSubject)
  }
}
