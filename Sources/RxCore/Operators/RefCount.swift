import Synchronization

// rx:value-leaf copy=makeSink super=run
/// Connects a connectable observable when the first subscriber arrives and disconnects when
/// the last one leaves (a subscriber leaves on dispose or when its sequence terminates).
///
/// Safe for concurrent first subscriptions (RxSwift 6.10.0 crashed there) and never
/// connects under a lock: the subscriber count is kept under a lock, but connect
/// and disconnect run through a Drain, in order, outside any lock. Connections carry the
/// generation (count period) they were made in, so a stale disconnect is ignored.
class RefCount<Element>: Producer<Element> {
  let source: ConnectableObservable<Element>

  private struct State {
    var count = 0
    var generation: UInt64 = 0
  }
  private let state = Mutex(State())

  private enum Op {
    case connect(UInt64)
    case disconnect(UInt64)
  }
  private let ops = Drain<Op>()
  // Drain-owned.
  private var connection: (generation: UInt64, disposable: any Cancelable)?

  public init(_ source: ConnectableObservable<Element>) {
    self.source = source
    super.init()
  }

  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = makeSink(observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    // A subscriber that the subject already ended (a kept subject that terminated) neither
    // counts nor connects: the source is not subscribed again (as RxSwift).
    if sink.isDisposed { return (sink, subscription) }
    let generation: UInt64 = state.withLock { s in
      s.count += 1
      if s.count == 1 { s.generation += 1 }
      return s.generation
    }
    // Every subscriber asks: the first one connects, and a subscriber arriving after the
    // connection ended with a terminal event reconnects (to a fresh subject).
    ops.submit(.connect(generation)) { self.handle($0) }
    return (sink, BinaryDisposable(subscription, AnonymousDisposable { self.release() }))
  }

  /// One subscriber's sink (a hook for the Value leaf).
  func makeSink(observer: Observer<Element>, cancel: any Cancelable) -> PassThroughSink<Element> {
    PassThroughSink(observer: observer, cancel: cancel)
  }

  private func release() {
    let last: UInt64? = state.withLock { s in
      s.count -= 1
      return s.count == 0 ? s.generation : nil
    }
    if let generation = last { ops.submit(.disconnect(generation)) { self.handle($0) } }
  }

  private func handle(_ op: Op) {
    switch op {
    case .connect(let generation):
      let wanted = state.withLock { $0.count > 0 && $0.generation == generation }
      guard wanted else { return }
      if let c = connection, !c.disposable.isDisposed { return }
      connection = (generation, source.connect())
    case .disconnect(let generation):
      if let c = connection, c.generation == generation {
        connection = nil
        c.disposable.dispose()
      }
    }
  }
}

extension ConnectableObservable {
  public func refCount() -> Observable<Element> { RefCount(self) }
}

extension ConnectableObservable where Element == Value {
  public func refCount() -> Observable<Value> { ValueRefCount(self) }
}
