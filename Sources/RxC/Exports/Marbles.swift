import CRxc
import Glibc
@_spi(RxC) import RxCore

// rxc.h section 12: marble tests (RxJS syntax) on a test scheduler.

// Marble tests for C users (RxJS syntax), on a test scheduler. One frame is
// RX_MARBLE_FRAME_NS of virtual time.

let marbleFrame: Int64 = 1_000_000
/// How far past the last expected frame a marble expectation keeps the clock running to
/// catch extra events (RxJS's maxFrames).
let marbleSlackFrames: Int64 = 750

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
  let events = parsed.events.map { (Int64($0.frame) * marbleFrame, table.event($0.token)) }
  return ObservableHandle.make(ColdObservable(scheduler: t.virtual, events: events))
}

@c(rx_marble_hot)
public func rx_marble_hot(
  _ test: UnsafeMutablePointer<rx_scheduler>?, _ marble: UnsafePointer<CChar>?,
  _ values: UnsafePointer<rx_marble_value>?, _ nValues: UInt, _ error: UnsafePointer<rx_error>?
) -> UnsafeMutablePointer<rx_observable>? {
  guard let t = TestSchedulerHandle.fromTest(test, "rx_marble_hot") else { return nil }
  guard let parsed = parse(marble, "rx_marble_hot", "marble") else { return nil }
  guard let table = MarbleValues(values, nValues, error, "rx_marble_hot") else { return nil }
  let origin = t.virtual.now
  let events = parsed.events.map { (origin + Int64($0.frame) * marbleFrame, table.event($0.token)) }
  return ObservableHandle.make(HotObservable(scheduler: t.virtual, events: events))
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
  let scheduler = t.virtual
  let origin = scheduler.now
  // Frames in `expected` count from its first character; `^` (default 0) is when to
  // subscribe, `!` when to dispose.
  let subscribeFrame = Int64(parsed.subscriptionFrame ?? 0)
  let want = parsed.events.map { (frame: Int64($0.frame) + subscribeFrame, token: $0.token) }
  let unsubscribeFrame = parsed.unsubscriptionFrame.map { Int64($0) + subscribeFrame }
  let lastFrame = ([subscribeFrame, unsubscribeFrame ?? 0] + want.map { $0.frame }).max()!

  let recorder = TestRecorder<RxValue>(scheduler: scheduler)
  let subscription = SerialDisposable()
  let subscribing = scheduler.scheduleAfter(subscribeFrame * marbleFrame) {
    subscription.set(h.observable.subscribe(recorder))
  }
  var unsubscribing: (any Disposable)?
  if let unsubscribeFrame {
    unsubscribing = scheduler.scheduleAfter(unsubscribeFrame * marbleFrame) { subscription.dispose() }
  }
  let status = scheduler.advance(to: origin + (lastFrame + marbleSlackFrames) * marbleFrame)
  subscribing.dispose()
  unsubscribing?.dispose()
  subscription.dispose()
  if status == .busy {
    setLastError("\(fn): the test scheduler is already running (called from inside its work)")
    return false
  }

  // Compare, frame by frame and event by event.
  var got: [(frame: Int64, token: Marble.Token, offset: Int64)] = []
  for (time, event) in recorder.events {
    let elapsed = time - origin
    let token: Marble.Token
    switch event {
    case .next(let v): token = .value(table.key(for: v))
    case .error: token = .error
    case .completed: token = .completed
    }
    got.append((elapsed / marbleFrame, token, elapsed % marbleFrame))
  }
  var matches = got.count == want.count
  if matches {
    for (i, (time, event)) in recorder.events.enumerated() {
      let w = want[i]
      let g = got[i]
      guard g.frame == w.frame, g.offset == 0 else { matches = false; break }
      switch (event, w.token) {
      case (.next(let v), .value(let key)): matches = valuesEqual(v, table.value(for: key))
      case (.error(let e), .error):
        let actual = ErrorObject.from(e)
        matches = actual.code == table.error.code && strcmp(actual.message, table.error.message) == 0
      case (.completed, .completed): matches = true
      default: matches = false
      }
      _ = time
      if !matches { break }
    }
  }
  if !matches {
    printMarbleDiff(expected: want, got: got, recorded: recorder.events, origin: origin, source: String(cString: expected!))
    setLastError("\(fn): the recorded events differ from \"\(String(cString: expected!))\" (diff on stderr)")
  }
  return matches
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

private func printMarbleDiff(
  expected: [(frame: Int64, token: Marble.Token)],
  got: [(frame: Int64, token: Marble.Token, offset: Int64)],
  recorded: [(time: Int64, event: Event<RxValue>)], origin: Int64, source: String
) {
  var text = "rx_marble_expect: mismatch\n"
  text += "  expected: \(source)\n"
  text += "  actual:   \(Marble.render(got.map { (Int($0.frame), $0.token) }))\n"
  text += "  recorded events (frame: event):\n"
  if recorded.isEmpty { text += "    (none)\n" }
  for (i, (time, event)) in recorded.enumerated() {
    let g = got[i]
    let off = g.offset == 0 ? "" : " +\(g.offset) ns"
    text += "    \(g.frame)\(off): \(describe(event))\n"
  }
  text += "  expected events (frame: event):\n"
  if expected.isEmpty { text += "    (none)\n" }
  for e in expected { text += "    \(e.frame): \(Marble.symbol(e.token))\n" }
  _ = origin
  fputs(text, stderr)
}
