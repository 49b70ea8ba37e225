import Glibc
import XCTest
@testable import RxCore

/// `debug`: the lines' form and order, generic and through the Value leaves.
final class DebugTests: XCTestCase {
  var start = 0
  override func setUp() { start = Resources.total }
  override func tearDown() { XCTAssertEqual(Resources.total, start, "live objects leaked") }

  /// The part after " -> " of each line, checking the prefix on the way.
  private func whats(_ lines: [String], label: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
    lines.map { text in
      let parts = text.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false)
      XCTAssertEqual(parts.count, 5, text, file: file, line: line)
      let time = parts[0].split(separator: ".")
      XCTAssertEqual(time.count, 2, text, file: file, line: line)
      XCTAssertEqual(time.last?.count, 6, text, file: file, line: line)
      XCTAssertEqual(parts[1], "tid", file: file, line: line)
      XCTAssertEqual(Int32(parts[2]), testGettid(), text, file: file, line: line)
      let rest = parts[3] + " " + parts[4]
      XCTAssertTrue(rest.hasPrefix(label + " -> "), text, file: file, line: line)
      return String(rest.dropFirst(label.count + 4))
    }
  }

  func testLinesOfACompletingSource() {
    var lines: [String] = []
    let log = DebugLog<Int>(label: "src", describe: { "\($0)" }, describeError: { "\($0)" }, write: { lines.append($0) })
    let source = HotSource<Int>()
    let r = Recorder<Int>()
    _ = source.observable.debug(log).subscribe(r)
    source.next(1)
    source.completed()
    XCTAssertEqual(whats(lines, label: "src"), ["subscribed", "next(1)", "completed", "disposed"])
    XCTAssertEqual(r.elements, [1])
    source.end()
  }

  func testErrorAndDisposeLines() {
    var lines: [String] = []
    let log = DebugLog<Int>(label: "a b", describe: { "\($0)" }, describeError: { _ in "boom" }, write: { lines.append($0) })
    _ = Observable<Int>.error(OpTestError(code: 1)).debug(log).subscribe(Recorder<Int>())
    XCTAssertEqual(whats(lines, label: "a b"), ["subscribed", "error(boom)", "disposed"])
    lines = []
    let source = HotSource<Int>()
    let d = source.observable.debug(log).subscribe(Recorder<Int>())
    d.dispose()
    source.next(2)
    XCTAssertEqual(whats(lines, label: "a b"), ["subscribed", "disposed"])
    source.end()
  }

  func testTimesNeverGoBack() {
    var lines: [String] = []
    let log = DebugLog<Value>(label: "t", describe: { _ in "v" }, describeError: { _ in "e" }, write: { lines.append($0) })
    let o = Observable<Value>.from((0..<50).map { Value.int($0) }).debug(log)
    XCTAssertTrue(o is ValueDoHooksProducer)
    _ = o.subscribe(Recorder<Value>())
    let times = lines.map { Double($0.split(separator: " ")[0])! }
    XCTAssertEqual(times.count, 53)
    XCTAssertEqual(times, times.sorted())
  }
}

/// glibc's gettid() (2.30+), which the Glibc module does not declare: the id the lines must
/// show (the library remembers it per thread).
@_silgen_name("gettid")
private func testGettid() -> pid_t
