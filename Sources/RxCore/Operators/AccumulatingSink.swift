/// What scan and reduce keep per subscription: the accumulation, and the callback that
/// advances it as a hook (`accumulate`), so that a leaf in another module calls its own
/// function in place of a closure (see docs/SPECIALIZATION.md).
open class AccumulatingSink<Source, Accumulate>: Sink<Source, Accumulate> {
  /// Nil for a subclass that overrides `accumulate(_:_:)`.
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

  @inlinable open func accumulate(_ state: Accumulate, _ element: Source) throws -> Accumulate {
    try accumulator!(state, element)
  }
}
