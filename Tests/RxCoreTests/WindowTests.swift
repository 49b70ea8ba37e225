import XCTest
@testable import RxCore

/// window(timeSpan:count:scheduler:): windows by count and time, terminal events, and the
/// ref-counted source subscription.
final class WindowTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertEqual(Resources.total, start, "live objects leaked") }

  /// Subscribes every window as it opens; `log` reads "W0 0:1 0| W1 ...".
  final class Windows: Observer<Observable<Int>> {
    var log: [String] = []
    var subscriptions: [any Disposable] = []
    override func on(_ event: Event<Observable<Int>>) {
      switch event {
      case .next(let window):
        let k = subscriptions.count
        log.append("W\(k)")
        subscriptions.append(window.subscribe(Tap(k, self)))
      case .error(let e): log.append("#\((e as? OpTestError)?.code ?? -1)")
      case .completed: log.append("|")
      }
    }
    func disposeAll() { subscriptions.forEach { $0.dispose() } }
  }

  final class Tap: Observer<Int> {
    let k: Int
    unowned let parent: Windows
    init(_ k: Int, _ parent: Windows) {
      self.k = k
      self.parent = parent
    }
    override func on(_ event: Event<Int>) {
      switch event {
      case .next(let v): parent.log.append("\(k):\(v)")
      case .error(let e): parent.log.append("\(k)#\((e as? OpTestError)?.code ?? -1)")
      case .completed: parent.log.append("\(k)|")
      }
    }
  }

  func testCountWindowsAndCompletion() {
    let hot = HotSource<Int>()
    let w = Windows()
    let d = hot.observable.window(timeSpan: nil, count: 2, scheduler: nil).subscribe(w)
    for v in 1...3 { hot.next(v) }
    hot.completed()
    XCTAssertEqual(w.log, ["W0", "0:1", "0:2", "0|", "W1", "1:3", "1|", "|"])
    XCTAssertEqual(hot.disposals, 1)
    d.dispose()
    w.disposeAll()
    hot.end()
  }

  func testErrorGoesToTheOpenWindowThenDownstream() {
    let hot = HotSource<Int>()
    let w = Windows()
    let d = hot.observable.window(timeSpan: nil, count: 5, scheduler: nil).subscribe(w)
    hot.next(1)
    hot.error(OpTestError(code: 3))
    XCTAssertEqual(w.log, ["W0", "0:1", "0#3", "#3"])
    d.dispose()
    w.disposeAll()
    hot.end()
  }

  func testTimeAndCountOnVirtualTime() {
    let s = VirtualTimeScheduler()
    let subject = PublishSubject<Int>()
    let w = Windows()
    let d = subject.window(timeSpan: 10, count: 2, scheduler: s).subscribe(w)
    subject.on(.next(1))
    _ = s.advance(to: 10)  // the timer closes window 0
    subject.on(.next(2))
    subject.on(.next(3))  // window 1 full: window 2 opens with its own timer
    _ = s.advance(to: 15)  // window 1's timer is stale
    subject.on(.next(4))
    _ = s.advance(to: 20)
    subject.on(.completed)
    XCTAssertEqual(w.log, ["W0", "0:1", "0|", "W1", "1:2", "1:3", "1|", "W2", "2:4", "2|", "W3", "3|", "|"])
    d.dispose()
    w.disposeAll()
  }

  func testTheSourceLivesWhileAWindowIsSubscribed() {
    let hot = HotSource<Int>()
    let w = Windows()
    let d = hot.observable.window(timeSpan: nil, count: 3, scheduler: nil).subscribe(w)
    hot.next(1)
    d.dispose()
    XCTAssertEqual(hot.disposals, 0)  // window 0 still listens
    hot.next(2)
    hot.next(3)  // window 0 closes; no new window reaches anyone
    XCTAssertEqual(w.log, ["W0", "0:1", "0:2", "0:3", "0|"])
    XCTAssertEqual(hot.disposals, 1)
    w.disposeAll()
    hot.end()
  }

  func testRefCountDisposable() {
    var disposed = 0
    let rc = RefCountDisposable(Disposables.create { disposed += 1 })
    let a = rc.retain(), b = rc.retain()
    rc.dispose()
    a.dispose()
    a.dispose()  // once per reference
    XCTAssertEqual(disposed, 0)
    XCTAssertFalse(rc.isDisposed)
    b.dispose()
    XCTAssertEqual(disposed, 1)
    XCTAssertTrue(rc.isDisposed)
    rc.retain().dispose()  // after the end: a no-op reference
    rc.dispose()
    XCTAssertEqual(disposed, 1)
  }
}
