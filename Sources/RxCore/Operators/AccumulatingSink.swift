/// What scan and reduce keep per subscription: the accumulation, and the callback that
/// advances it as a hook (`accumulate`), so that a leaf in another module calls its own
/// function in place of a closure (see docs/SPECIALIZATION.md).
@_spi(RxC) open class AccumulatingSink<Source, Accumulate>: Sink<Source, Accumulate> {
  /// Nil for a subclass that overrides `accumulate(into:_:)`.
  @usableFromInline let accumulator: ((Accumulate, Source) throws -> Accumulate)?
  @usableFromInline final var state: Accumulate

  public init(
    seed: Accumulate, accumulator: ((Accumulate, Source) throws -> Accumulate)?, observer: Observer<Accumulate>,
    cancel: any Cancelable
  ) {
    self.accumulator = accumulator
    self.state = seed
    super.init(observer: observer, cancel: cancel)
  }

  /// Advances the state at `state` by the element at `element` (left as it was if this
  /// throws). Both are borrowed in place, so a leaf that hands them to a C function copies
  /// neither; and with no generic result, the leaf's override is called with no thunk.
  @inlinable open func accumulate(into state: UnsafeMutablePointer<Accumulate>, _ element: UnsafePointer<Source>)
    throws
  {
    state.pointee = try accumulator!(state.pointee, element.pointee)
  }

  /// Advances the state by the element at `element`; false (the error forwarded) if the
  /// callback threw.
  @inlinable @inline(__always) public final func advance(by element: UnsafePointer<Source>) -> Bool {
    do { try withUnsafeMutablePointer(to: &state) { try accumulate(into: $0, element) } } catch {
      forwardTerminal(.error(error))
      return false
    }
    return true
  }
}
