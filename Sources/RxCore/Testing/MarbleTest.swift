/// Marble tests on a `VirtualTimeScheduler` (RxJS's syntax, see `Marble`): sources made from
/// a marble, and the check of what a source emits against an expected marble.
extension Marble {
  /// One frame of virtual time, in ns.
  public static let frame: Int64 = 1_000_000
  /// How far past the last expected frame an expectation keeps the clock running to catch
  /// extra events (RxJS's maxFrames).
  public static let slackFrames: Int64 = 750

  /// A cold source: each subscriber gets `parsed`'s events at their frames after it
  /// subscribed. `event` gives each token its event.
  public static func cold<Element>(_ parsed: Parsed, on scheduler: VirtualTimeScheduler,
                                   _ event: (Token) -> Event<Element>) -> Observable<Element>
  {
    ColdObservable(scheduler: scheduler, events: parsed.events.map { (Int64($0.frame) * frame, event($0.token)) })
  }

  /// A hot source: `parsed`'s events at their frames from now, whoever is subscribed then.
  public static func hot<Element>(_ parsed: Parsed, on scheduler: VirtualTimeScheduler,
                                  _ event: (Token) -> Event<Element>) -> Observable<Element>
  {
    let origin = scheduler.now
    return HotObservable(scheduler: scheduler,
                         events: parsed.events.map { (origin + Int64($0.frame) * frame, event($0.token)) })
  }

  /// What `expect` saw: the expected events (frames counted from the subscription), and
  /// each recorded one with its frame, the ns past that frame, and its token.
  public struct Outcome<Element> {
    /// `.busy`: the scheduler was already running (called from inside its work); nothing ran.
    public var status: VirtualTimeScheduler.AdvanceStatus
    public var matches: Bool
    public var expected: [(frame: Int64, token: Token)]
    public var recorded: [(frame: Int64, offset: Int64, token: Token, event: Event<Element>)]

    /// A readable mismatch report: both marbles, then the events one per line.
    public func diff(_ source: String, describe: (Event<Element>) -> String) -> String {
      var text = "  expected: \(source)\n"
      text += "  actual:   \(Marble.render(recorded.map { (Int($0.frame), $0.token) }))\n"
      text += "  recorded events (frame: event):\n"
      if recorded.isEmpty { text += "    (none)\n" }
      for r in recorded {
        let off = r.offset == 0 ? "" : " +\(r.offset) ns"
        text += "    \(r.frame)\(off): \(describe(r.event))\n"
      }
      text += "  expected events (frame: event):\n"
      if expected.isEmpty { text += "    (none)\n" }
      for e in expected { text += "    \(e.frame): \(Marble.symbol(e.token))\n" }
      return text
    }
  }

  /// Subscribes `source` at `expected`'s `^` (frame 0 without one), disposes it at its `!`,
  /// runs `scheduler` `slackFrames` past the last expected frame, and compares, event by
  /// event, frame and kind: `key` names a recorded element for the report, `same` says
  /// whether a recorded event is what an expected token stands for.
  public static func expect<Element>(
    _ source: Observable<Element>, on scheduler: VirtualTimeScheduler, _ expected: Parsed,
    key: (Element) -> Character, same: (Event<Element>, Token) -> Bool
  ) -> Outcome<Element> {
    let origin = scheduler.now
    let subscribeFrame = Int64(expected.subscriptionFrame ?? 0)
    let want = expected.events.map { (frame: Int64($0.frame) + subscribeFrame, token: $0.token) }
    let unsubscribeFrame = expected.unsubscriptionFrame.map { Int64($0) + subscribeFrame }
    let lastFrame = ([subscribeFrame, unsubscribeFrame ?? 0] + want.map { $0.frame }).max()!

    let recorder = TestRecorder<Element>(scheduler: scheduler)
    let subscription = SerialDisposable()
    let subscribing = scheduler.scheduleAfter(subscribeFrame * frame) { subscription.set(source.subscribe(recorder)) }
    let unsubscribing = unsubscribeFrame.map { f in scheduler.scheduleAfter(f * frame) { subscription.dispose() } }
    let status = scheduler.advance(to: origin + (lastFrame + slackFrames) * frame)
    subscribing.dispose()
    unsubscribing?.dispose()
    subscription.dispose()

    let got = recorder.events.map { time, event -> (frame: Int64, offset: Int64, token: Token, event: Event<Element>) in
      let elapsed = time - origin
      let token: Token
      switch event {
      case .next(let v): token = .value(key(v))
      case .error: token = .error
      case .completed: token = .completed
      }
      return (elapsed / frame, elapsed % frame, token, event)
    }
    let matches = status != .busy && got.count == want.count
      && zip(got, want).allSatisfy { g, w in g.frame == w.frame && g.offset == 0 && same(g.event, w.token) }
    return Outcome(status: status, matches: matches, expected: want, recorded: got)
  }
}
