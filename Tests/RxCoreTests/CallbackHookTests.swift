import XCTest
@testable import RxCore

/// The callback operators' Value leaves take `.next` by pointer from a subject and forward it
/// by pointer to the next leaf (`Sink.forwardNext`): the same events, errors, disposal and
/// value lifetimes as through `on`.
final class CallbackHookTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertEqual(Resources.total, start, "live objects leaked") }

  final class Box { let n: Int64; init(_ n: Int64) { self.n = n } }

  private static func int(_ v: Value) -> Int64 {
    switch v {
    case .int(let i): return i
    case .boxed(let b as Box): return b.n
    default: return -1
    }
  }

  /// Every callback leaf, subject -> leaf -> leaf -> recorder, with boxed values.
  func testChainFromASubjectByPointer() {
    weak var firstBox: Box?
    do {
      let subject = PublishSubject<Value>()
      let chain = subject.asObservable()
        .skip(while: { Self.int($0) < 2 })
        .distinctUntilChanged { Self.int($0) == Self.int($1) }
        .compactMap { Self.int($0) == 4 ? nil : $0 }
        .scan(.int(0)) { acc, v in .boxed(Box(Self.int(acc) + Self.int(v))) }
        .take(while: { Self.int($0) < 100 })
        .take(until: { Self.int($0) > 1000 })
      let r = Recorder<Value>()
      let d = chain.subscribe(r)
      for n: Int64 in [1, 2, 2, 3, 4, 5, 200, 6] {
        let box = Box(n)
        if n == 1 { firstBox = box }
        subject.on(.next(.boxed(box)))
      }
      XCTAssertEqual(r.elements.map(Self.int), [2, 5, 10])
      XCTAssertTrue(r.completed)
      d.dispose()
    }
    XCTAssertNil(firstBox, "a value was retained past its subscription")
  }

  func testReduceAndErrorsByPointer() {
    let subject = PublishSubject<Value>()
    let sum = Recorder<Value>()
    let d1 = subject.asObservable().reduce(.int(0)) { .int(Self.int($0) + Self.int($1)) }.subscribe(sum)
    let failing = Recorder<Value>()
    var calls = 0
    let d2 = subject.asObservable().take(while: { v in
      calls += 1
      if Self.int(v) == 2 { throw OpTestError(code: 7) }
      return true
    }).subscribe(failing)
    subject.on(.next(.int(1)))
    subject.on(.next(.int(2)))
    subject.on(.next(.int(3)))
    subject.on(.completed)
    XCTAssertEqual(sum.elements.map(Self.int), [6])
    XCTAssertTrue(sum.completed)
    XCTAssertEqual(failing.elements.map(Self.int), [1])
    XCTAssertEqual(failing.events.last?.error as? OpTestError, OpTestError(code: 7))
    XCTAssertEqual(calls, 2)
    d1.dispose()
    d2.dispose()
  }

  func testDisposeInsideTheCallbackStopsCalls() {
    let subject = PublishSubject<Value>()
    let r = Recorder<Value>()
    var calls = 0
    var d: (any Disposable)?
    d = subject.asObservable().skip(while: { v in
      calls += 1
      if Self.int(v) == 2 { d?.dispose() }
      return true
    }).subscribe(r)
    for n: Int64 in 1...4 { subject.on(.next(.int(n))) }
    XCTAssertEqual(calls, 2)
    XCTAssertTrue(r.events.isEmpty)
  }
}
