import Synchronization

/// A C observer token's state, as one word: its flags in the low half and the count of C
/// references to the token in the high half, so that rx_dispose cancels and drops its
/// reference with one read-modify-write.
struct TokenState {
  var raw: UInt64

  struct Flags: OptionSet {
    let rawValue: UInt64
    /// No callback may start any more.
    static let stopped = Flags(rawValue: 1)
    /// The token was disposed (idempotence).
    static let disposed = Flags(rawValue: 2)
    /// A disposer left on_disposed to the deliverer.
    static let pending = Flags(rawValue: 4)
    /// A deliverer saw STOPPED after a callback.
    static let left = Flags(rawValue: 8)
    /// on_disposed is claimed.
    static let final = Flags(rawValue: 16)
    /// A subject lists the observer on the C references' Swift reference ...
    static let listed = Flags(rawValue: 32)
    /// ... or on a reference of its own.
    static let listedRetained = Flags(rawValue: 64)
    /// The subject let go of it.
    static let unlisted = Flags(rawValue: 128)
  }

  /// One C reference, in `raw`'s units.
  static let oneCReference: UInt64 = 1 << 32

  @inline(__always) init(raw: UInt64) { self.raw = raw }

  /// A new token's state: one C reference and `flags`.
  @inline(__always) init(oneReference flags: Flags = []) { raw = Self.oneCReference | flags.rawValue }

  @inline(__always) func has(_ flags: Flags) -> Bool { raw & flags.rawValue != 0 }

  @inline(__always) var cReferences: UInt64 { raw >> 32 }

  /// The caller holds the only C reference.
  @inline(__always) var hasOneCReference: Bool { cReferences == 1 }

  /// Listed by a subject in either way.
  @inline(__always) var isListed: Bool { has([.listed, .listedRetained]) }

  /// A listing still keeps the C references' Swift reference.
  @inline(__always) var waitsForSubject: Bool { raw & (Flags.listed.rawValue | Flags.unlisted.rawValue) == Flags.listed.rawValue }

  @inline(__always) func adding(_ flags: Flags) -> TokenState { TokenState(raw: raw | flags.rawValue) }

  @inline(__always) func droppingOneCReference() -> TokenState { TokenState(raw: raw &- Self.oneCReference) }
}

/// The atomic word holding a `TokenState`, with the operations the token makes on it.
struct AtomicTokenState: ~Copyable {
  private let word: Atomic<UInt64>

  init(_ initial: TokenState) { word = Atomic(initial.raw) }

  @inline(__always) func load() -> TokenState { TokenState(raw: word.load(ordering: .acquiring)) }

  /// For a caller that is the only one who can touch the word (see `storeUnshared`).
  @inline(__always) func loadUnshared() -> TokenState { TokenState(raw: word.load(ordering: .relaxed)) }

  /// For a caller that is the only one who can touch the word: a plain store.
  @inline(__always) func storeUnshared(_ s: TokenState) { word.store(s.raw, ordering: .relaxed) }

  /// Sets `flags`; returns the state before.
  @discardableResult @inline(__always)
  func set(_ flags: TokenState.Flags) -> TokenState {
    TokenState(raw: word.bitwiseOr(flags.rawValue, ordering: .acquiringAndReleasing).oldValue)
  }

  /// `set` when nothing else is published with the flags.
  @inline(__always) func setRelaxed(_ flags: TokenState.Flags) { word.bitwiseOr(flags.rawValue, ordering: .relaxed) }

  /// Drops one C reference; returns the state before.
  @inline(__always) func dropOneCReference() -> TokenState {
    TokenState(raw: word.wrappingSubtract(TokenState.oneCReference, ordering: .acquiringAndReleasing).oldValue)
  }

  /// Adds one C reference unless none is left (the token is dead); false then.
  @inline(__always) func addCReferenceIfAlive() -> Bool {
    var current = word.load(ordering: .relaxed)
    while current >= TokenState.oneCReference {
      let r = word.compareExchange(expected: current, desired: current + TokenState.oneCReference, ordering: .relaxed)
      if r.exchanged { return true }
      current = r.original
    }
    return false
  }

  /// Replaces the state by `update(old)` in one read-modify-write; returns the old state.
  @inline(__always) func update(_ update: (TokenState) -> TokenState) -> TokenState {
    var old = word.load(ordering: .relaxed)
    while true {
      let r = word.compareExchange(expected: old, desired: update(TokenState(raw: old)).raw, ordering: .acquiringAndReleasing)
      if r.exchanged { return TokenState(raw: old) }
      old = r.original
    }
  }
}
