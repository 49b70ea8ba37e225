import Synchronization

/// An `ObserverEnd`'s state, as one word: its flags in the low half and the count of the
/// embedding layer's references to its token (the C references) in the high half, so that
/// a dispose cancels and drops its reference with one read-modify-write.
@_spi(RxC) public struct TokenState {
  public var raw: UInt64

  public struct Flags: OptionSet {
    public let rawValue: UInt64
    @inlinable @inline(__always) public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// No callback may start any more.
    @inlinable public static var stopped: Flags { Flags(rawValue: 1) }
    /// The token was disposed (idempotence).
    @inlinable public static var disposed: Flags { Flags(rawValue: 2) }
    /// A disposer left on_disposed to the deliverer.
    @inlinable public static var pending: Flags { Flags(rawValue: 4) }
    /// A deliverer saw STOPPED after a callback.
    @inlinable public static var left: Flags { Flags(rawValue: 8) }
    /// on_disposed is claimed.
    @inlinable public static var final: Flags { Flags(rawValue: 16) }
    /// A subject lists the observer on the C references' Swift reference ...
    @inlinable public static var listed: Flags { Flags(rawValue: 32) }
    /// ... or on a reference of its own.
    @inlinable public static var listedRetained: Flags { Flags(rawValue: 64) }
    /// The subject let go of it.
    @inlinable public static var unlisted: Flags { Flags(rawValue: 128) }
  }

  /// One C reference, in `raw`'s units.
  @inlinable public static var oneCReference: UInt64 { 1 << 32 }

  @inlinable @inline(__always) public init(raw: UInt64) { self.raw = raw }

  /// A new token's state: one C reference and `flags`.
  @inlinable @inline(__always) public init(oneReference flags: Flags = []) { raw = Self.oneCReference | flags.rawValue }

  @inlinable @inline(__always) public func has(_ flags: Flags) -> Bool { raw & flags.rawValue != 0 }

  @inlinable @inline(__always) public var cReferences: UInt64 { raw >> 32 }

  /// The caller holds the only C reference.
  @inlinable @inline(__always) public var hasOneCReference: Bool { cReferences == 1 }

  /// Listed by a subject in either way.
  @inlinable @inline(__always) public var isListed: Bool { has([.listed, .listedRetained]) }

  /// A listing still keeps the C references' Swift reference.
  @inlinable @inline(__always) public var waitsForSubject: Bool { raw & (Flags.listed.rawValue | Flags.unlisted.rawValue) == Flags.listed.rawValue }

  @inlinable @inline(__always) public func adding(_ flags: Flags) -> TokenState { TokenState(raw: raw | flags.rawValue) }

  @inlinable @inline(__always) public func droppingOneCReference() -> TokenState { TokenState(raw: raw &- Self.oneCReference) }
}

/// The atomic word holding a `TokenState`, with the operations the token makes on it.
@_spi(RxC) public struct AtomicTokenState: ~Copyable {
  @usableFromInline let word: Atomic<UInt64>

  @inlinable public init(_ initial: TokenState) { word = Atomic(initial.raw) }

  @inlinable @inline(__always) public func load() -> TokenState { TokenState(raw: word.load(ordering: .acquiring)) }

  /// For a caller that is the only one who can touch the word (see `storeUnshared`).
  @inlinable @inline(__always) public func loadUnshared() -> TokenState { TokenState(raw: word.load(ordering: .relaxed)) }

  /// For a caller that is the only one who can touch the word: a plain store.
  @inlinable @inline(__always) public func storeUnshared(_ s: TokenState) { word.store(s.raw, ordering: .relaxed) }

  /// Sets `flags`; returns the state before.
  @discardableResult @inlinable @inline(__always)
  public func set(_ flags: TokenState.Flags) -> TokenState {
    // A dispose may end a synchronous loop upstream; a terminal event reaches an observer
    // end through a sink that disposes itself after it (and bumps then).
    if flags.contains(.disposed) { SynchronousStop.noteStop() }  // (folds away at each call site)
    return TokenState(raw: word.bitwiseOr(flags.rawValue, ordering: .acquiringAndReleasing).oldValue)
  }

  /// `set` when nothing else is published with the flags.
  @inlinable @inline(__always) public func setRelaxed(_ flags: TokenState.Flags) {
    if flags.contains(.disposed) { SynchronousStop.noteStop() }
    word.bitwiseOr(flags.rawValue, ordering: .relaxed)
  }

  /// Drops one C reference; returns the state before.
  @inlinable @inline(__always) public func dropOneCReference() -> TokenState {
    TokenState(raw: word.wrappingSubtract(TokenState.oneCReference, ordering: .acquiringAndReleasing).oldValue)
  }

  /// Adds one C reference unless none is left (the token is dead); false then.
  @inlinable @inline(__always) public func addCReferenceIfAlive() -> Bool {
    var current = word.load(ordering: .relaxed)
    while current >= TokenState.oneCReference {
      let r = word.compareExchange(expected: current, desired: current + TokenState.oneCReference, ordering: .relaxed)
      if r.exchanged { return true }
      current = r.original
    }
    return false
  }

  /// Replaces the state by `update(old)` in one read-modify-write; returns the old state.
  @inlinable @inline(__always) public func update(_ update: (TokenState) -> TokenState) -> TokenState {
    SynchronousStop.noteStop()  // (its one caller, a dispose, sets `.stopped`)
    var old = word.load(ordering: .relaxed)
    while true {
      let r = word.compareExchange(expected: old, desired: update(TokenState(raw: old)).raw, ordering: .acquiringAndReleasing)
      if r.exchanged { return TokenState(raw: old) }
      old = r.original
    }
  }
}
