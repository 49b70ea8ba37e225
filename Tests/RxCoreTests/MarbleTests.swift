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
}
