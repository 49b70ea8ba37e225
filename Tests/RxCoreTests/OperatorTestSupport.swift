@testable import RxCore
import Synchronization

/// A hot source for operator tests: `create` whose sink is kept, so the test pushes events.
final class HotSource<Element> {
  private(set) var sink: AnyObserver<Element>?
  private(set) var subscriptions = 0
  private(set) var disposals = 0

  lazy var observable: Observable<Element> = Observable.create { [unowned self] sink in
    self.sink = sink
    self.subscriptions += 1
    return Disposables.create { self.disposals += 1 }
  }

  func next(_ e: Element) { sink?.on(.next(e)) }
  func completed() { sink?.on(.completed) }
  func error(_ e: any Error) { sink?.on(.error(e)) }
  func end() { sink = nil }
}

struct OpTestError: Error, Equatable { let code: Int }

extension Recorder {
  var errorCode: Int? {
    for e in events { if case .error(let err) = e { return (err as? OpTestError)?.code } }
    return nil
  }
  var failedWith: (any Error)? {
    for e in events { if case .error(let err) = e { return err } }
    return nil
  }
}

/// A flow-controlled observable's counters read the way a user reads them (`FlowCounted`'s
/// `flowStats`), each as a counter with `load(ordering:)` so the assertions read as before.
struct LiveFlowCounters {
  struct Counter {
    let read: () -> UInt64
    func load(ordering _: AtomicLoadOrdering) -> UInt64 { read() }
  }

  let source: any FlowCounted
  var received: Counter { Counter { [source] in source.flowStats!.received } }
  var delivered: Counter { Counter { [source] in source.flowStats!.delivered } }
  var dropped: Counter { Counter { [source] in source.flowStats!.dropped } }
  var overflows: Counter { Counter { [source] in source.flowStats!.overflows } }
}

extension Observable {
  /// The counters of a bounded observe_on, buffered pausable or rate limit.
  var counters: LiveFlowCounters { LiveFlowCounters(source: self as! any FlowCounted) }
}
