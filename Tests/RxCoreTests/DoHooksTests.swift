import XCTest
@_spi(RxC) @testable import RxCore

/// `do(hooks:)`: RxSwift's order of every hook, generic and through the Value leaves.
final class DoHooksTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertEqual(Resources.total, start, "live objects leaked") }

  /// Hooks that append to `log`, and a subscriber that does too.
  private func logging(_ log: Log) -> DoHooks<Int> {
    DoHooks(
      onNext: { log.add("on(\($0))") }, afterNext: { log.add("after(\($0))") },
      onError: { _ in log.add("on(#)") }, afterError: { _ in log.add("after(#)") },
      onCompleted: { log.add("on(|)") }, afterCompleted: { log.add("after(|)") },
      onSubscribe: { log.add("subscribe") }, onSubscribed: { log.add("subscribed") },
      onDispose: { log.add("dispose") })
  }

  final class Log: Observer<Int> {
    var entries: [String] = []
    func add(_ s: String) { entries.append(s) }
    override func on(_ event: Event<Int>) {
      switch event {
      case .next(let v): add("\(v)")
      case .error: add("#")
      case .completed: add("|")
      }
    }
  }

  func testOrderAroundValuesAndCompletion() {
    let source = HotSource<Int>()
    let log = Log()
    _ = source.observable.do(hooks: logging(log)).subscribe(log)
    XCTAssertEqual(log.entries, ["subscribe", "subscribed"])
    source.next(1)
    source.completed()
    XCTAssertEqual(log.entries, ["subscribe", "subscribed", "on(1)", "1", "after(1)", "on(|)", "|", "after(|)", "dispose"])
    XCTAssertEqual(source.disposals, 1)
    source.end()
  }

  func testOrderAroundAnError() {
    let source = HotSource<Int>()
    let log = Log()
    _ = source.observable.do(hooks: logging(log)).subscribe(log)
    source.error(OpTestError(code: 1))
    source.next(2)  // after the end: no hook runs
    XCTAssertEqual(log.entries, ["subscribe", "subscribed", "on(#)", "#", "after(#)", "dispose"])
    source.end()
  }

  func testDisposeHookRunsAfterTheSourceIsDisposed() {
    let source = HotSource<Int>()
    var disposalsSeen = -1
    let d = source.observable.do(hooks: DoHooks(onDispose: { disposalsSeen = source.disposals })).subscribe(Recorder<Int>())
    d.dispose()
    XCTAssertEqual(disposalsSeen, 1)
    d.dispose()
    XCTAssertEqual(disposalsSeen, 1)
    source.end()
  }

  func testSubscribeHooksAroundTheSourceSubscription() {
    let source = HotSource<Int>()
    var seen: [Int] = []
    let d = source.observable.do(hooks: DoHooks(
      onSubscribe: { seen.append(source.subscriptions) }, onSubscribed: { seen.append(source.subscriptions) }
    )).subscribe(Recorder<Int>())
    XCTAssertEqual(seen, [0, 1])
    d.dispose()
    source.end()
  }

  func testValueLeaf() {
    var order: [String] = []
    let o = Observable<Value>.from([.int(1), .int(2)]).do(hooks: DoHooks(
      onNext: { _ in order.append("on") }, afterNext: { _ in order.append("after") },
      onCompleted: { order.append("on|") }))
    XCTAssertTrue(o is ValueDoHooksProducer)
    let r = Recorder<Value>()
    _ = o.subscribe(r)
    XCTAssertEqual(r.elements.count, 2)
    XCTAssertEqual(order, ["on", "after", "on", "after", "on|"])
  }

  /// Element hooks as an object (`ValueNextHooks`): called by pointer around each element
  /// delivered (an element given as an event too), the other hooks still from `hooks`,
  /// whose element closures are not called.
  func testValueNextHooksObject() {
    final class Hooks: ValueNextHooks {
      var log: [String] = []
      override func onNext(at element: UnsafePointer<Value>) {
        if case .int(let i) = element.pointee { log.append("on(\(i))") }
      }
      override func afterNext(at element: UnsafePointer<Value>) {
        if case .int(let i) = element.pointee { log.append("after(\(i))") }
      }
    }
    final class Logger: Observer<Value> {
      let hooks: Hooks
      init(_ hooks: Hooks) { self.hooks = hooks }
      override func on(_ event: Event<Value>) {
        switch event {
        case .next(.int(let i)): hooks.log.append("\(i)")
        case .completed: hooks.log.append("|")
        default: hooks.log.append("?")
        }
      }
    }
    let hooks = Hooks()
    let subject = PublishSubject<Value>()
    let o = subject.do(hooks: DoHooks(
      onNext: { _ in hooks.log.append("closure") }, afterNext: { _ in hooks.log.append("closure") },
      onCompleted: { hooks.log.append("on(|)") }, onDispose: { hooks.log.append("dispose") }), nextHooks: hooks)
    let d = o.subscribe(Logger(hooks))
    subject.on(.next(.int(1)))
    subject.emitNext(.int(2))
    subject.on(.completed)
    d.dispose()
    XCTAssertEqual(hooks.log, ["on(1)", "1", "after(1)", "on(2)", "2", "after(2)", "on(|)", "|", "dispose"])
  }
}
