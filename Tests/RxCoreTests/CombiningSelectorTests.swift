import XCTest
@_spi(RxC) @testable import RxCore

/// zip and combineLatest with a selector that reads the combination in place (the form the C
/// layer uses): the same combinations as the array form, and every element released once,
/// whether the selector returns, throws, or the subscription ends with elements waiting.
final class CombiningSelectorTests: XCTestCase {
  var start = 0
  override func setUp() {
    start = Resources.total
    Token.live = 0
  }
  override func tearDown() {
    XCTAssertEqual(Resources.total, start, "live objects leaked")
    XCTAssertEqual(Token.live, 0, "an element was not released")
  }

  /// A boxed element that counts its live instances.
  final class Token {
    nonisolated(unsafe) static var live = 0
    let n: Int64
    init(_ n: Int64) {
      self.n = n
      Token.live += 1
    }
    deinit { Token.live -= 1 }
  }

  private static func n(_ v: Value) -> Int64 {
    switch v {
    case .int(let i): return i
    case .boxed(let o): return (o as! Token).n
    default: return -1
    }
  }

  private static func tokens(_ values: UnsafeBufferPointer<Value>) -> Value {
    .int(values.reduce(0) { $0 * 100 + n($1) })
  }

  private func ints(_ r: Recorder<Value>) -> [Int64] { r.elements.map(Self.n) }

  func testZipInPlaceMatchesTheArrayFormWhateverTheArrivalOrder() {
    // Uneven arrivals: some elements wait in a queue, others complete a combination at once.
    let script: [(Int, Int64)] = [(0, 1), (0, 2), (1, 1), (2, 1), (1, 2), (0, 3), (2, 2), (2, 3), (1, 3)]
    var results: [[Int64]] = []
    for inPlace in [true, false] {
      let subjects = (0..<3).map { _ in PublishSubject<Value>() }
      let sources = subjects.map { $0.asObservable() }
      let zipped = inPlace
        ? Observable.zip(sources, bufferSelector: Self.tokens)
        : Observable.zip(sources) { values in values.withUnsafeBufferPointer(Self.tokens) }
      XCTAssertTrue(zipped is ValueZipProducer)
      let r = Recorder<Value>()
      let d = zipped.subscribe(r)
      for (i, v) in script { subjects[i].on(.next(.boxed(Token(v)))) }
      results.append(ints(r))
      d.dispose()
    }
    XCTAssertEqual(results[0], [10101, 20202, 30303])
    XCTAssertEqual(results[1], results[0])
  }

  func testZipReleasesWaitingElementsAndThrownCombinations() {
    let a = PublishSubject<Value>(), b = PublishSubject<Value>()
    var calls = 0
    let zipped = Observable.zip([a.asObservable(), b.asObservable()]) { (values: UnsafeBufferPointer<Value>) -> Value in
      calls += 1
      if calls == 2 { throw OpTestError(code: 7) }
      return Self.tokens(values)
    }
    let r = Recorder<Value>()
    let d = zipped.subscribe(r)
    a.on(.next(.boxed(Token(1))))
    b.on(.next(.boxed(Token(1))))
    a.on(.next(.boxed(Token(2))))
    a.on(.next(.boxed(Token(3))))  // waits in a's queue past the error
    b.on(.next(.boxed(Token(2))))  // the selector throws
    XCTAssertEqual(ints(r), [101])
    XCTAssertEqual(r.errorCode, 7)
    d.dispose()
  }

  func testCombineLatestInPlaceReplacesAndReleasesTheLatest() {
    let a = PublishSubject<Value>(), b = PublishSubject<Value>()
    let combined = Observable.combineLatest([a.asObservable(), b.asObservable()], bufferSelector: Self.tokens)
    XCTAssertTrue(combined is ValueCombineLatestProducer)
    let r = Recorder<Value>()
    let d = combined.subscribe(r)
    a.on(.next(.boxed(Token(1))))
    a.on(.next(.boxed(Token(2))))  // replaces 1 before b has emitted
    b.on(.next(.boxed(Token(5))))
    b.on(.next(.boxed(Token(6))))
    a.on(.next(.boxed(Token(3))))
    XCTAssertEqual(ints(r), [205, 206, 306])
    XCTAssertEqual(Token.live, 2, "only the latest of each source is kept")
    d.dispose()
  }

  /// The array form refills one array per subscription: each combination's elements are
  /// still let go of as soon as the selector returns (zip keeps nothing of a pair it
  /// combined), and a selector that keeps the array it was given keeps that combination.
  func testArraySelectorLetsGoOfEachCombinationAndAKeptArrayKeepsItsValues() {
    let a = PublishSubject<Value>(), b = PublishSubject<Value>()
    var kept: [[Value]] = []
    var livesDuringCall: [Int] = []
    let zipped = Observable.zip([a.asObservable(), b.asObservable()]) { (values: [Value]) -> Value in
      livesDuringCall.append(Token.live)
      if Self.n(values[0]) == 2 { kept.append(values) }
      return .int(Self.n(values[0]) * 100 + Self.n(values[1]))
    }
    let r = Recorder<Value>()
    let d = zipped.subscribe(r)
    for i in Int64(1)...3 {
      a.on(.next(.boxed(Token(i))))
      b.on(.next(.boxed(Token(i + 4))))
      XCTAssertEqual(Token.live, i == 2 || i == 3 ? 2 : 0, "a combined pair is let go of after the call")
    }
    XCTAssertEqual(ints(r), [105, 206, 307])
    XCTAssertEqual(livesDuringCall, [2, 2, 4])
    XCTAssertEqual(kept.map { $0.map(Self.n) }, [[2, 6]])
    kept = []
    XCTAssertEqual(Token.live, 0)
    d.dispose()
  }

  func testCombineLatestOfNoSourcesCallsTheSelectorOnce() {
    var seen: [Int] = []
    let combined = Observable<Value>.combineLatest([], bufferSelector: { values in
      seen.append(values.count)
      return .int(42)
    })
    let r = Recorder<Value>()
    _ = combined.subscribe(r)
    XCTAssertEqual(ints(r), [42])
    XCTAssertTrue(r.completed)
    XCTAssertEqual(seen, [0])
  }

  /// A selector object: shared by every subscription, called once per combination, and
  /// released with the last observable that holds it.
  final class Concatenating: CombiningFunction<Value, Value> {
    var calls = 0
    override func combine(_ elements: UnsafeBufferPointer<Value>) throws -> Value {
      calls += 1
      if elements.contains(where: { CombiningSelectorTests.n($0) < 0 }) { throw OpTestError(code: 9) }
      return CombiningSelectorTests.tokens(elements)
    }
  }

  func testSelectorObjectServesEverySubscriptionOfZipAndCombineLatest() {
    weak var released: Concatenating?
    do {
      let function = Concatenating()
      released = function
      let a = PublishSubject<Value>(), b = PublishSubject<Value>()
      let sources = [a.asObservable(), b.asObservable()]
      let zipped = Observable.zip(sources, selector: .function(function))
      let combined = Observable.combineLatest(sources, selector: .function(function))
      XCTAssertTrue(zipped is ValueZipProducer)
      XCTAssertTrue(combined is ValueCombineLatestProducer)
      let rz = Recorder<Value>(), rc = Recorder<Value>(), rz2 = Recorder<Value>()
      let ds = [zipped.subscribe(rz), combined.subscribe(rc), zipped.subscribe(rz2)]
      a.on(.next(.boxed(Token(1))))
      b.on(.next(.boxed(Token(2))))
      a.on(.next(.boxed(Token(3))))
      XCTAssertEqual(ints(rz), [102])
      XCTAssertEqual(ints(rz2), [102])
      XCTAssertEqual(ints(rc), [102, 302])
      b.on(.next(.int(-1)))  // the selector throws: each subscription fails on its own
      XCTAssertEqual(rz.errorCode, 9)
      XCTAssertEqual(rc.errorCode, 9)
      XCTAssertEqual(function.calls, 7)  // (1,2) three times, (3,2) once, (3,-1) three times
      ds.forEach { $0.dispose() }
    }
    XCTAssertNil(released, "the selector object outlived its observables")
  }
  /// A selector object that keeps what it derives from each element in the subscription's
  /// argument buffer (as the C layer keeps its rx_value views) and refreshes only the element
  /// the sink says changed: every call must still see each element as it is.
  final class Remembering: CombiningFunction<Value, Value> {
    var calls = 0, refreshedAll = 0, stale = 0
    override var argumentStride: Int { MemoryLayout<Int64>.stride }
    override func apply(
      _ elements: UnsafePointer<Value>?, count: Int, arguments: UnsafeMutableRawPointer?, changed: Int,
      into result: UnsafeMutablePointer<Value>
    ) throws {
      calls += 1
      let kept = arguments!.assumingMemoryBound(to: Int64.self)
      if changed < 0 {
        refreshedAll += 1
        for i in 0..<count { kept[i] = CombiningSelectorTests.n(elements![i]) }
      } else {
        kept[changed] = CombiningSelectorTests.n(elements![changed])
      }
      var digits: Int64 = 0
      for i in 0..<count {
        if kept[i] != CombiningSelectorTests.n(elements![i]) { stale += 1 }
        digits = digits * 100 + kept[i]
      }
      if digits < 0 { throw OpTestError(code: 3) }
      result.initialize(to: .int(digits))
    }
  }

  func testArgumentBufferIsRefreshedExactlyWhereElementsChanged() {
    let f = Remembering()
    let s = [PublishSubject<Value>(), PublishSubject<Value>(), PublishSubject<Value>()]
    let sources = s.map { $0.asObservable() }
    let rc = Recorder<Value>(), rz = Recorder<Value>(), rw = Recorder<Value>()
    let ds = [
      Observable.combineLatest(sources, selector: .function(f)).subscribe(rc),
      Observable.zip(sources, selector: .function(f)).subscribe(rz),
      sources[0].withLatestFrom(sources[1], combining: f).subscribe(rw),
    ]
    s[0].on(.next(.int(1)))
    s[1].on(.next(.boxed(Token(2))))
    s[2].on(.next(.int(3)))
    s[0].on(.next(.boxed(Token(4))))
    s[1].on(.next(.int(5)))
    s[1].on(.next(.int(6)))
    s[0].on(.next(.int(7)))
    s[2].on(.next(.boxed(Token(8))))
    s[2].on(.next(.int(9)))
    s[0].on(.next(.int(10)))
    XCTAssertEqual(ints(rc), [10203, 40203, 40503, 40603, 70603, 70608, 70609, 100609])
    XCTAssertEqual(ints(rz), [10203, 40508, 70609])
    XCTAssertEqual(ints(rw), [402, 706, 1006])
    XCTAssertEqual(f.stale, 0)
    // Once per subscription for combine_latest, every zip combination, and with_latest_from
    // whenever the other source moved (the first call included).
    XCTAssertEqual(f.refreshedAll, 1 + 3 + 2)
    s[0].on(.next(.int(-1)))  // the selector throws: each subscription fails on its own
    XCTAssertEqual(rc.errorCode, 3)
    XCTAssertEqual(rw.errorCode, 3)
    ds.forEach { $0.dispose() }
  }
}
