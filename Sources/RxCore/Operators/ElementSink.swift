/// What the sinks that call a function on each element (compact_map, distinct, scan/reduce,
/// filter, skip/take(while:), enumerated, dematerialize) route alike: a `.next` goes to `handleNext(at:)` with the
/// element in place, a terminal event to `terminate(_:)` unless disposed. Open, with its
/// bodies inlinable, so that a final leaf (which overrides neither) calls its operator's
/// bodies directly, specialized (see docs/SPECIALIZATION.md).
@_spi(RxC) open class ElementSink<Source, Result>: Sink<Source, Result> {
  // Written out and inlined: through an inherited one, RxC's leaves called their
  // operator's init out of line, about 180 instructions more per subscription.
  @inlinable @inline(__always) public override init(observer: Observer<Result>, cancel: any Cancelable) {
    super.init(observer: observer, cancel: cancel)
  }

  open override func on(_ event: Event<Source>) { handle(event) }

  @inlinable @inline(__always) public final func handle(_ event: Event<Source>) {
    switch event {
    case .next(let element): _withUnprotectedUnsafePointer(to: element) { handleNext(at: $0) }
    case _ where isDisposed: return
    case .error, .completed: terminate(event)
    }
  }

  /// A `.next` event's body, the element borrowed where it is: what `onNext(at:)` of a leaf
  /// runs (no `Event` built).
  @inlinable open func handleNext(at element: UnsafePointer<Source>) {
    preconditionFailure("ElementSink.handleNext(at:) is abstract")
  }

  /// A terminal event that finds the sink not disposed: forwarded, unless the operator has
  /// more to do first.
  @inlinable open func terminate(_ event: Event<Source>) {
    if case .error(let error) = event { return forwardTerminal(.error(error)) }
    forwardTerminal(.completed)
  }
}
