import XCTest
@testable import RxCore

/// Per-thread spare objects: the ownership test they rest on, and that a subscription the
/// library recycles is never one somebody still refers to.
final class ThreadSpareTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertEqual(Resources.total, start, "live objects leaked") }

  final class Probe {}

  // Each check is made outside the assertion: its autoclosure would capture the object, a
  // reference of its own.
  func testSolelyOwnedReadsTheRuntimesCounts() throws {
    #if RXC_TSAN
      throw XCTSkip("never true under ThreadSanitizer")
    #else
      let a = Probe()
      var owned = ThreadSpare.isSolelyOwned(a)
      XCTAssertTrue(owned)
      var b: Probe? = a
      owned = ThreadSpare.isSolelyOwned(a)
      XCTAssertFalse(owned, "a second strong reference")
      b = nil
      owned = ThreadSpare.isSolelyOwned(a)
      XCTAssertTrue(owned)
      XCTAssertNil(b)
      do {
        unowned let u = a
        owned = ThreadSpare.isSolelyOwned(a)
        XCTAssertFalse(owned, "an unowned reference")
        _ = u
      }
      owned = ThreadSpare.isSolelyOwned(a)
      XCTAssertTrue(owned)
      let c = Probe()
      weak var w = c
      owned = ThreadSpare.isSolelyOwned(c)
      XCTAssertFalse(owned, "a weak reference")
      XCTAssertNotNil(w)
    #endif
  }

  /// A subject's subscriptions torn down by the library are reused (the live-object count
  /// stays level over many), and one a caller still refers to weakly is not: it is freed.
  func testSubscriptionsAreRecycledUnlessStillReferredTo() {
    let subject = PublishSubject<Int64>()
    let r = Recorder<Int64>()
    for i in 0..<100 {
      let d = subject.map { $0 * 2 }.subscribe(r)
      subject.on(.next(Int64(i)))
      d.dispose()
      XCTAssertEqual(Resources.total, start + 1, "only the subject lives between subscriptions")
    }
    XCTAssertEqual(r.elements, (0..<100).map { Int64($0) * 2 })

    let bag = CompositeDisposable()
    weak var weakSubscription: AnyObject?
    let key: CompositeDisposable.Key? = {
      let s = subject.subscribe(r)
      weakSubscription = s
      return bag.insert(s)
    }()
    XCTAssertNotNil(weakSubscription)
    bag.remove(for: key!)
    XCTAssertNil(weakSubscription, "a subscription somebody refers to weakly is freed, not kept")
    let again = subject.subscribe(r)
    XCTAssertNil(weakSubscription)
    again.dispose()
    subject.dispose()
  }
}
