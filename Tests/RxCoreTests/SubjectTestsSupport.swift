import Glibc
import Synchronization
import XCTest
@testable import RxCore

/// An event as a test sees it, comparable with ==.
enum Rec: Equatable, CustomStringConvertible {
  case next(Int)
  case error(String)
  case completed
  case dropped

  var description: String {
    switch self {
    case .next(let v): return "next(\(v))"
    case .error(let e): return "error(\(e))"
    case .completed: return "completed"
    case .dropped: return "dropped"
    }
  }
}

struct NamedError: Error, Equatable {
  let name: String
  init(_ name: String) { self.name = name }
}

func describeError(_ error: any Error) -> String {
  if let e = error as? NamedError { return e.name }
  if let e = error as? RxError { return "\(e)" }
  return "\(error)"
}

/// Records everything an observer receives (callers serialize, as subjects guarantee).
final class EventLog: Observer<Int> {
  var records: [Rec] = []
  var onEvent: ((Event<Int>) -> Void)?

  override func on(_ event: Event<Int>) {
    switch event {
    case .next(let v): records.append(.next(v))
    case .error(let e): records.append(.error(describeError(e)))
    case .completed: records.append(.completed)
    }
    onEvent?(event)
  }

  override func dropped() { records.append(.dropped) }
}

/// Base class: every subject test checks that Resources.total returns to its start.
class SubjectTestCase: XCTestCase {
  var startResources = 0
  override func setUp() {
    super.setUp()
    startResources = Resources.total
  }
  override func tearDown() {
    XCTAssertEqual(Resources.total, startResources, "live objects leaked")
    super.tearDown()
  }
}

/// Runs `body(i)` on `n` fresh threads at once and joins them.
func runThreads(_ n: Int, _ body: @escaping (Int) -> Void) {
  final class Start: @unchecked Sendable {
    let body: (Int) -> Void
    let index: Int
    init(_ body: @escaping (Int) -> Void, _ index: Int) { self.body = body; self.index = index }
  }
  var threads: [pthread_t] = []
  for i in 0..<n {
    var t = pthread_t()
    let arg = Unmanaged.passRetained(Start(body, i)).toOpaque()
    let rc = pthread_create(&t, nil, { raw in
      let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
      start.body(start.index)
      return nil
    }, arg)
    precondition(rc == 0)
    threads.append(t)
  }
  for t in threads { pthread_join(t, nil) }
}
