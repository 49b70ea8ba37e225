@testable import RxCore

/// A hot source for operator tests: `create` whose sink is kept, so the test pushes events.
final class HotSource<Element> {
  private(set) var sink: AnonymousObservableSink<Element>?
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
