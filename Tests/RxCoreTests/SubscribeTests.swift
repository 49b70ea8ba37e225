import XCTest
import RxCore

/// The public way in: an `ObserverType` or closures, as a user of the module (no @testable).
final class SubscribeTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertEqual(Resources.total, start, "live objects leaked") }

  struct Boom: Error {}

  /// A user's observer: a struct with one method.
  struct Collect: ObserverType {
    let log: Log
    func on(_ event: Event<Int>) {
      switch event {
      case .next(let v): log.items.append("\(v)")
      case .error: log.items.append("error")
      case .completed: log.items.append("completed")
      }
    }
  }
  final class Log { var items: [String] = [] }

  func testObserverTypeGetsEveryEvent() {
    let log = Log()
    _ = Observable.of(1, 2, 3).subscribe(Collect(log: log))
    XCTAssertEqual(log.items, ["1", "2", "3", "completed"])
  }

  func testObserverTypeOnASubjectByPointer() {
    let log = Log()
    let subject = PublishSubject<Int>()
    let d = subject.subscribe(Collect(log: log))
    subject.on(.next(7))
    subject.onNext(8)
    subject.on(.error(Boom()))
    XCTAssertEqual(log.items, ["7", "8", "error"])
    d.dispose()
  }

  func testAnyObserverErasesAndForwards() {
    let log = Log()
    let erased = AnyObserver(Collect(log: log))
    let closure = AnyObserver<Int> { erased.on($0) }
    _ = Observable.of(4).subscribe(closure.asObserver())
    XCTAssertEqual(log.items, ["4", "completed"])
  }

  func testClosuresOnCompletion() {
    var seen: [String] = []
    _ = Observable.of(1, 2).map { $0 * 10 }.subscribe(
      onNext: { seen.append("\($0)") },
      onError: { _ in seen.append("error") },
      onCompleted: { seen.append("completed") },
      onDisposed: { seen.append("disposed") })
    XCTAssertEqual(seen, ["10", "20", "completed", "disposed"])
  }

  func testClosuresOnError() {
    var seen: [String] = []
    let d = Observable<Int>.error(Boom()).subscribe(
      onNext: { seen.append("\($0)") },
      onError: { seen.append($0 is Boom ? "boom" : "other") },
      onCompleted: { seen.append("completed") },
      onDisposed: { seen.append("disposed") })
    d.dispose()  // already ended: onDisposed stays at one call
    XCTAssertEqual(seen, ["boom", "disposed"])
  }

  func testDisposeEndsTheSubscriptionAndRunsOnDisposedOnce() {
    var seen: [String] = []
    let subject = PublishSubject<Int>()
    let d = subject.subscribe(onNext: { seen.append("\($0)") }, onDisposed: { seen.append("disposed") })
    subject.onNext(1)
    d.dispose()
    subject.onNext(2)
    d.dispose()
    XCTAssertEqual(seen, ["1", "disposed"])
  }

  func testOnNextAloneAndDisposeBag() {
    var sum = 0
    let bag = DisposeBag()
    let subject = BehaviorSubject(value: 5)
    subject.subscribe(onNext: { sum += $0 }).disposed(by: bag)
    subject.onNext(6)
    bag.drain()
    subject.onNext(100)
    XCTAssertEqual(sum, 11)
  }

  func testValueElementsTakeTheSpecializedPath() {
    var ints: [Int64] = []
    var completed = 0
    let subject = PublishSubject<Value>()
    let d = subject.map { v -> Value in
      if case .int(let i) = v { return .int(i + 1) }
      return v
    }.subscribe(onNext: { if case .int(let i) = $0 { ints.append(i) } }, onCompleted: { completed += 1 })
    for k in 0..<3 { subject.onNext(.int(Int64(k))) }
    subject.onCompleted()
    d.dispose()
    XCTAssertEqual(ints, [1, 2, 3])
    XCTAssertEqual(completed, 1)
  }
}
