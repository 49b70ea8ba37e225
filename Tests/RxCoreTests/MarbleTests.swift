import XCTest
@testable import RxCore

final class MarbleTests: XCTestCase {
  func testFramesValuesAndTerminal() throws {
    let p = try Marble.parse("--a--b--|")
    XCTAssertEqual(p.events.map { $0.frame }, [2, 5, 8])
    XCTAssertEqual(p.events.map { $0.token }, [.value("a"), .value("b"), .completed])
    XCTAssertNil(p.subscriptionFrame)
  }

  func testGroupsShareAFrameAndAdvanceTimeByTheirWidth() throws {
    let p = try Marble.parse("-(ab)-c#")
    XCTAssertEqual(p.events.map { $0.frame }, [1, 1, 6, 7])
    XCTAssertEqual(p.events.last?.token, .error)
  }

  func testSubscriptionPointMakesEarlierFramesNegative() throws {
    let p = try Marble.parse("a-^-b-!")
    XCTAssertEqual(p.subscriptionFrame, 2)
    XCTAssertEqual(p.events.map { $0.frame }, [-2, 2])
    XCTAssertEqual(p.unsubscriptionFrame, 4)
  }

  func testSpacesAreIgnored() throws {
    XCTAssertEqual(try Marble.parse(" -a - |").events.map { $0.frame }, [1, 3])
  }

  func testErrors() {
    XCTAssertThrowsError(try Marble.parse("-(a")) { XCTAssertEqual($0 as? Marble.ParseError, .unclosedGroup) }
    XCTAssertThrowsError(try Marble.parse("-a?")) {
      XCTAssertEqual($0 as? Marble.ParseError, .unexpected("?", position: 2))
    }
    XCTAssertThrowsError(try Marble.parse("((a))"))
    XCTAssertThrowsError(try Marble.parse("^-^"))
  }

  func testRenderRoundTrips() throws {
    for m in ["--a--b--|", "-(ab)-c#", "a", "---|", "(a|)"] {
      let p = try Marble.parse(m)
      XCTAssertEqual(Marble.render(p.events), m, m)
    }
  }

  /// A marble test from Swift: a cold source checked against marbles, on virtual time.
  func testExpectOnVirtualTime() throws {
    let start = Resources.total
    do {
      let scheduler = VirtualTimeScheduler()
      let value: (Marble.Token) -> Event<Int> = { token in
        switch token {
        case .value(let c): return .next(c.wholeNumberValue!)
        case .error: return .error(RxError.disposed)
        case .completed: return .completed
        }
      }
      let source = Marble.cold(try Marble.parse("-1-2-|"), on: scheduler, value).map { $0 * 2 }
      let same: (Event<Int>, Marble.Token) -> Bool = { event, token in
        switch (event, token) {
        case (.next(let v), .value(let c)): return v == c.wholeNumberValue
        case (.completed, .completed), (.error, .error): return true
        default: return false
        }
      }
      let key: (Int) -> Character = { Character(String($0)) }
      let ok = Marble.expect(source, on: scheduler, try Marble.parse("-2-4-|"), key: key, same: same)
      XCTAssertEqual(ok.status, .ok)
      XCTAssertTrue(ok.matches)
      XCTAssertEqual(ok.recorded.map { $0.frame }, [1, 3, 5])

      let late = Marble.expect(source, on: scheduler, try Marble.parse("--2-4-|"), key: key, same: same)
      XCTAssertFalse(late.matches)
      XCTAssertTrue(late.diff("--2-4-|", describe: { "\($0)" }).contains("actual:   -2-4-|"))
    }
    XCTAssertEqual(Resources.total, start, "live objects leaked")
  }
}
