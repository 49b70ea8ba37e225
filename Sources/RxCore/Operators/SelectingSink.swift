/// concat_map and flat_map_latest (switch): a producer of the source and the selector that
/// maps each element to an inner observable (a `UnaryProducer` whose parameter is the
/// selector, nil for a leaf whose sink overrides `select`), and this sink, whose subclasses
/// differ in what they do with the inners (queue them or switch).
struct InnerSelector<Source, Result> {
  // In a struct, the closure keeps its own abstraction, not that of the producer's opaque
  // parameter: converting it there kept the Value overloads out of a client's
  // cross-module optimization (Swift concat_map +11 instructions per element).
  let select: ((Source) throws -> Observable<Result>)?
}

/// The sinks' common part: the selector, the drain their `Signal`s go through, and the
/// subscriptions of the source and of the current inner.
class SelectingSink<Source, Result, Signal>: Sink<Source, Result> {
  typealias Selected = FlatMapSink<Source, Result>.Selected

  let selector: ((Source) throws -> Observable<Result>)?
  let drain = Drain<Signal>()
  let sourceSubscription = SingleAssignmentDisposable()
  let innerSubscription = SerialDisposable()

  init(selector: ((Source) throws -> Observable<Result>)?, observer: Observer<Result>, cancel: any Cancelable) {
    self.selector = selector
    super.init(observer: observer, cancel: cancel)
  }

  final override func subscribe(to source: Observable<Source>) -> any Disposable {
    sourceSubscription.trySet(source.subscribe(self))
    return BinaryDisposable(sourceSubscription, innerSubscription)
  }
}
