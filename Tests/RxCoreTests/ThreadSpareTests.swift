import XCTest
@_spi(RxC) @testable import RxCore

/// Per-thread spare objects: the ownership test they rest on, and that a subscription the
/// library recycles is never one somebody still refers to.
final class ThreadSpareTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertEqual(Resources.total, start, "live objects leaked") }

  final class Probe {}

  private static func int(_ v: Value) -> Int64 {
    if case .int(let i) = v { return i }
    return -1
  }

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

  /// A just an operator ran and let go of is reused by the next `just` on this thread; one
  /// the caller still holds keeps its element.
  func testJustsAreRecycledUnlessStillHeld() {
    let r = Recorder<Value>()
    _ = Observable<Value>.range(start: 0, count: 50).flatMap { Observable<Value>.just(.int(Self.int($0) * 3)) }.subscribe(r)
    XCTAssertEqual(r.elements.map(Self.int), (0..<50).map { Int64($0) * 3 })

    let kept = Observable<Value>.just(.int(7))
    let r2 = Recorder<Value>()
    _ = Observable<Value>.range(start: 0, count: 20).concatMap { i -> Observable<Value> in
      _ = Observable<Value>.just(.int(Self.int(i)))  // would take `kept` if it were a spare
      return kept
    }.subscribe(r2)
    XCTAssertEqual(r2.elements.map(Self.int), Array(repeating: 7, count: 20))
    let r3 = Recorder<Value>()
    _ = kept.map { $0 }.subscribe(r3)
    XCTAssertEqual(r3.elements.map(Self.int), [7])

    // map and filter take a just in as its element, and recycle the just they consumed.
    let r4 = Recorder<Value>()
    for i in 0..<10 { _ = Observable<Value>.just(.int(Int64(i))).map { .int(Self.int($0) + 1) }.subscribe(r4) }
    XCTAssertEqual(r4.elements.map(Self.int), (1...10).map { Int64($0) })
  }

  /// A scheduled action that ran is reused by the next one made on the thread, its closure
  /// (and what that captured) gone by then; one somebody still holds is never reused, nor
  /// one that was disposed while still queued.
  func testScheduledActionsAreRecycledOnlyWhenDoneAndUnheld() throws {
    #if RXC_TSAN
      throw XCTSkip("no spares under ThreadSanitizer")
    #else
      let scheduler = VirtualTimeScheduler()
      weak var captured: Probe?
      var ran = 0
      var first: ObjectIdentifier?
      do {
        let probe = Probe()
        captured = probe
        let d = scheduler.scheduleAfter(10) { withExtendedLifetime(probe) { ran += 1 } }
        first = ObjectIdentifier(d as AnyObject)
        _ = d  // dropped here: the scheduler holds the action until it runs
      }
      XCTAssertNotNil(captured, "a queued action keeps its closure")
      XCTAssertEqual(scheduler.advance(by: 10), .ok)
      XCTAssertEqual(ran, 1)
      XCTAssertNil(captured, "a run action lets go of its closure at once")
      // The run loop let go of it last: it is the spare the next action takes.
      let second = scheduler.scheduleAfter(10) { ran += 10 }
      XCTAssertEqual(ObjectIdentifier(second as AnyObject), first)
      XCTAssertFalse((second as! ScheduledAction).isDisposed, "a reused action starts afresh")
      XCTAssertEqual(scheduler.advance(by: 10), .ok)
      XCTAssertEqual(ran, 11)

      // Held by somebody after it ran: not reused, and still done.
      let held = second as! ScheduledAction
      let third = scheduler.scheduleAfter(10) { ran += 100 }
      XCTAssertNotEqual(ObjectIdentifier(third as AnyObject), ObjectIdentifier(held))
      XCTAssertTrue(held.isDisposed)
      // Disposed while queued: the queue still holds it, so a serial slot's replacement
      // does not reuse it, and it never runs.
      let slot = SerialDisposable()
      slot.set(third)
      slot.set(scheduler.scheduleAfter(20) { ran += 1000 })
      let fourth = scheduler.scheduleAfter(30) { ran += 10000 }
      XCTAssertNotEqual(ObjectIdentifier(fourth as AnyObject), ObjectIdentifier(third as AnyObject))
      XCTAssertEqual(scheduler.advance(by: 30), .ok)
      XCTAssertEqual(ran, 11011)
      slot.dispose()
    #endif
  }
}
