import CRxc
import Glibc
@_spi(RxC) import RxCore

// rxc.h section 12: marble tests (RxJS syntax) on a test scheduler.

// Marble tests for C users (RxJS syntax), on a test scheduler. One frame is
// RX_MARBLE_FRAME_NS of virtual time.

private func parse(_ marble: UnsafePointer<CChar>?, _ fn: StaticString, _ arg: StaticString) -> Marble.Parsed? {
  guard let marble else {
    setLastError("\(fn): \(arg) is NULL")
    return nil
  }
  do {
    return try Marble.parse(String(cString: marble))
  } catch {
    setLastError("\(fn): \(arg) \"\(String(cString: marble))\": \(error)")
    return nil
  }
}

@c(rx_marble_cold)
public func rx_marble_cold(
  _ test: UnsafeMutablePointer<rx_scheduler>?, _ marble: UnsafePointer<CChar>?,
  _ values: UnsafePointer<rx_marble_value>?, _ nValues: UInt, _ error: UnsafePointer<rx_error>?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let t = TestSchedulerHandle.fromTest(test, "rx_marble_cold") else { return nil }
  guard let parsed = parse(marble, "rx_marble_cold", "marble") else { return nil }
  if parsed.subscriptionFrame != nil || parsed.unsubscriptionFrame != nil {
    setLastError("rx_marble_cold: '^' and '!' belong to hot and expected marbles")
    return nil
  }
  guard let table = MarbleValues(values, nValues, error, "rx_marble_cold") else { return nil }
  return ObservableHandle.make(Marble.cold(parsed, on: t.virtual, table.event))
}

@c(rx_marble_hot)
public func rx_marble_hot(
  _ test: UnsafeMutablePointer<rx_scheduler>?, _ marble: UnsafePointer<CChar>?,
  _ values: UnsafePointer<rx_marble_value>?, _ nValues: UInt, _ error: UnsafePointer<rx_error>?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let t = TestSchedulerHandle.fromTest(test, "rx_marble_hot") else { return nil }
  guard let parsed = parse(marble, "rx_marble_hot", "marble") else { return nil }
  guard let table = MarbleValues(values, nValues, error, "rx_marble_hot") else { return nil }
  return ObservableHandle.make(Marble.hot(parsed, on: t.virtual, table.event))
}

@c(rx_marble_expect)
public func rx_marble_expect(
  _ test: UnsafeMutablePointer<rx_scheduler>?, _ source: UnsafeMutablePointer<rx_observable>?,
  _ expected: UnsafePointer<CChar>?, _ values: UnsafePointer<rx_marble_value>?, _ nValues: UInt,
  _ error: UnsafePointer<rx_error>?
) -> Bool {
  let fn: StaticString = "rx_marble_expect"
  guard let t = TestSchedulerHandle.fromTest(test, fn) else { return false }
  guard let h = ObservableHandle.from(source, fn) else { return false }
  guard let parsed = parse(expected, fn, "expected") else { return false }
  guard let table = MarbleValues(values, nValues, error, fn) else { return false }
  let outcome = Marble.expect(h.observable, on: t.virtual, parsed, key: table.key(for:)) { event, token in
    switch (event, token) {
    case (.next(let v), .value(let key)): return valuesEqual(v, table.value(for: key))
    case (.error(let e), .error):
      let actual = ErrorObject.from(e)
      return actual.code == table.error.code && strcmp(actual.message, table.error.message) == 0
    case (.completed, .completed): return true
    default: return false
    }
  }
  if outcome.status == .busy {
    setLastError("\(fn): the test scheduler is already running (called from inside its work)")
    return false
  }
  if !outcome.matches {
    let source = String(cString: expected!)
    fputs("rx_marble_expect: mismatch\n" + outcome.diff(source, describe: describe), stderr)
    setLastError("\(fn): the recorded events differ from \"\(source)\" (diff on stderr)")
  }
  return outcome.matches
}

private func describe(_ event: Event<RxValue>) -> String {
  switch event {
  case .next(let v):
    switch v {
    case .none: return "none"
    case .int(let i): return "\(i)"
    case .double(let d): return "\(d)"
    case .bool(let b): return "\(b)"
    case .ptr(let p): return "ptr(\(String(describing: p)))"
    case .boxed(let box as StringBox): return "\"\(String(cString: box.bytes))\""
    case .boxed: return "kind \(v.box!.valueKind.rawValue)"
    }
  case .error(let e):
    let o = ErrorObject.from(e)
    return "error \(o.code) \"\(String(cString: o.message))\""
  case .completed: return "completed"
  }
}
