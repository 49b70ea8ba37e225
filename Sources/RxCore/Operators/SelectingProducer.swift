/// What concat_map and flat_map_latest (switch) keep per operator: the source and the
/// selector that maps each element to an inner observable. Each subclass's `run` builds its
/// own sink (the two differ in what they do with the inners: queue them, or switch).
class SelectingProducer<Source, Result>: Producer<Result> {
  let source: Observable<Source>
  /// Nil for a leaf whose sink overrides `select`.
  let selector: ((Source) throws -> Observable<Result>)?

  init(source: Observable<Source>, selector: ((Source) throws -> Observable<Result>)?) {
    self.source = source
    self.selector = selector
  }
}

/// Their sinks' common part: the selector, the drain their `Signal`s go through, and the
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

  func run(_ source: Observable<Source>) -> any Disposable {
    sourceSubscription.trySet(source.subscribe(self))
    return BinaryDisposable(sourceSubscription, innerSubscription)
  }
}
