import XCTest
@_spi(RxC) @testable import RxCore

/// RecursiveAction (RxSwift's scheduleRecursive): rescheduling now and after a delay, one
/// run per recurse, disposal of the whole chain, and the action released at the end.
final class RecursiveActionTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertEqual(Resources.total, start, "live objects leaked") }

  final class Flag { var value = false }

  func testRecursesAfterADelayAndReleasesTheActionAtTheEnd() {
    let s = VirtualTimeScheduler()
    var at: [Int64] = []
    let released = Flag()
    final class Witness { let flag: Flag; init(_ f: Flag) { flag = f }; deinit { flag.value = true } }
    let chain = RecursiveAction(scheduler: s) { [witness = Witness(released)] me in
      _ = witness
      at.append(s.now)
      if at.count < 3 { XCTAssertEqual(me.recurse(after: 5), .scheduled) }
    }
    chain.start()
    _ = s.start()
    XCTAssertEqual(at, [0, 5, 10])
    XCTAssertTrue(released.value)
    XCTAssertEqual(chain.recurse(), .ended)
  }

  /// A chain that ended or was disposed counts out at once, though its holder keeps the
  /// object (a released C token under RXC_DEBUG stays allocated and holds its chain).
  func testAnEndedOrDisposedChainIsNotLiveWhileStillHeld() {
    let s = VirtualTimeScheduler()
    let ended = RecursiveAction(scheduler: s) { me in if s.now < 10 { me.recurse(after: 5) } }
    let disposed = RecursiveAction(scheduler: s) { _ in XCTFail("disposed before its run") }
    XCTAssertEqual(Resources.total, start + 2)
    ended.start()
    disposed.start()
    disposed.dispose()
    XCTAssertEqual(Resources.total, start + 1)
    _ = s.start()
    XCTAssertEqual(ended.recurse(), .ended)
    XCTAssertEqual(Resources.total, start)
    withExtendedLifetime((ended, disposed)) {}
  }

  /// One dropped unstarted still counts out, at its deinit.
  func testAChainDroppedUnstartedIsNotLive() {
    do { _ = RecursiveAction(scheduler: VirtualTimeScheduler()) { _ in } }
    XCTAssertEqual(Resources.total, start)
  }

  func testEachRecurseSchedulesOneRun() {
    let s = VirtualTimeScheduler()
    var runs = 0
    let chain = RecursiveAction(scheduler: s) { me in
      runs += 1
      if runs == 1 { me.recurse(); me.recurse() }
    }
    chain.start()
    _ = s.start()
    XCTAssertEqual(runs, 3)
  }

  func testDisposeCancelsPendingRuns() {
    let s = VirtualTimeScheduler()
    var runs = 0
    let chain = RecursiveAction(scheduler: s) { me in
      runs += 1
      me.recurse(after: 10)
    }
    chain.start()
    _ = s.advance(by: 25)
    XCTAssertEqual(runs, 3)
    chain.dispose()
    XCTAssertTrue(chain.isDisposed)
    XCTAssertEqual(chain.recurse(), .disposed)
    _ = s.advance(by: 100)
    XCTAssertEqual(runs, 3)
  }

  func testCurrentThreadTrampolinesInsteadOfNesting() {
    var runs = 0, depth = 0, maxDepth = 0
    let chain = RecursiveAction(scheduler: CurrentThreadScheduler.instance) { me in
      depth += 1
      maxDepth = max(maxDepth, depth)
      runs += 1
      if runs < 5000 { me.recurse() }
      depth -= 1
    }
    chain.start()
    XCTAssertEqual(runs, 5000)
    XCTAssertEqual(maxDepth, 1)
  }
}
