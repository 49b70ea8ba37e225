/// RxJS marble diagrams, parsed into timed events.
///
/// Syntax: `-` one frame; `a`–`z`, `A`–`Z`, `0`–`9` a value (looked up by its character);
/// `|` completed; `#` error; `^` the subscription point (hot observables: frame 0 is there,
/// earlier frames are negative); `!` the unsubscription point (in subscription marbles);
/// `(`…`)` a group: its events share the frame of the `(`, and, as in RxJS, every character
/// of the group still advances time by one frame; spaces are ignored.
public enum Marble {
  public enum Token: Equatable, Sendable {
    case value(Character)
    case error
    case completed
  }

  public struct Parsed: Equatable, Sendable {
    /// (frame, token) in order; frames are relative to `^` when present.
    public var events: [(frame: Int, token: Token)]
    /// Frame of `^` from the start of the string (0 when absent).
    public var subscriptionFrame: Int?
    /// Frame of `!`, relative like `events`.
    public var unsubscriptionFrame: Int?

    public static func == (a: Parsed, b: Parsed) -> Bool {
      a.subscriptionFrame == b.subscriptionFrame && a.unsubscriptionFrame == b.unsubscriptionFrame
        && a.events.count == b.events.count
        && zip(a.events, b.events).allSatisfy { $0.frame == $1.frame && $0.token == $1.token }
    }
  }

  public enum ParseError: Error, Equatable, CustomStringConvertible {
    case unexpected(Character, position: Int)
    case unclosedGroup
    case nestedGroup(position: Int)
    case duplicate(Character, position: Int)

    public var description: String {
      switch self {
      case .unexpected(let c, let p): return "unexpected '\(c)' at position \(p)"
      case .unclosedGroup: return "unclosed '('"
      case .nestedGroup(let p): return "nested '(' at position \(p)"
      case .duplicate(let c, let p): return "second '\(c)' at position \(p)"
      }
    }
  }

  public static func isValueCharacter(_ c: Character) -> Bool {
    guard let a = c.asciiValue else { return false }
    return (a >= 0x61 && a <= 0x7A) || (a >= 0x41 && a <= 0x5A) || (a >= 0x30 && a <= 0x39)
  }

  public static func parse(_ marble: String) throws -> Parsed {
    var events: [(frame: Int, token: Token)] = []
    var frame = 0
    var groupFrame: Int?
    var subscription: Int?
    var unsubscription: Int?
    for (position, c) in marble.enumerated() {
      let at = groupFrame ?? frame
      switch c {
      case " ": continue
      case "-": break
      case "|": events.append((at, .completed))
      case "#": events.append((at, .error))
      case "^":
        if subscription != nil { throw ParseError.duplicate(c, position: position) }
        subscription = at
      case "!":
        if unsubscription != nil { throw ParseError.duplicate(c, position: position) }
        unsubscription = at
      case "(":
        if groupFrame != nil { throw ParseError.nestedGroup(position: position) }
        groupFrame = frame
      case ")":
        guard groupFrame != nil else { throw ParseError.unexpected(c, position: position) }
        groupFrame = nil
      default:
        guard isValueCharacter(c) else { throw ParseError.unexpected(c, position: position) }
        events.append((at, .value(c)))
      }
      frame += 1
    }
    if groupFrame != nil { throw ParseError.unclosedGroup }
    let origin = subscription ?? 0
    return Parsed(
      events: events.map { ($0.frame - origin, $0.token) },
      subscriptionFrame: subscription,
      unsubscriptionFrame: unsubscription.map { $0 - origin })
  }

  /// Renders timed events back into a marble string starting at frame `from` (events at the
  /// same frame become a group). Used to print readable diffs.
  public static func render(_ events: [(frame: Int, token: Token)], from: Int = 0) -> String {
    var out = ""
    var frame = from
    var i = 0
    let sorted = events.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }
      .map { $0.element }
    while i < sorted.count {
      let f = sorted[i].frame
      while frame < f {
        out.append("-")
        frame += 1
      }
      var group: [Token] = []
      while i < sorted.count && sorted[i].frame == f {
        group.append(sorted[i].token)
        i += 1
      }
      let text = group.map(symbol).joined()
      if group.count > 1 {
        out += "(" + text + ")"
        frame += group.count + 2
      } else {
        out += text
        frame += 1
      }
    }
    return out
  }

  public static func symbol(_ t: Token) -> String {
    switch t {
    case .value(let c): return String(c)
    case .error: return "#"
    case .completed: return "|"
    }
  }
}
