/// What concat_map and flat_map_latest (switch) keep per operator: the source and the
/// selector that maps each element to an inner observable; and how a subscription starts.
/// Each subclass builds its own sink (`makeSink`: the two differ in what they do with the
/// inners, queue them or switch); a leaf overrides `run` with `super.run`, so that it runs
/// specialized and its own `makeSink` is called.
class SelectingProducer<Source, Result, Signal>: Producer<Result> {
  let source: Observable<Source>
  /// Nil for a leaf whose sink overrides `select`.
  let selector: ((Source) throws -> Observable<Result>)?

  init(source: Observable<Source>, selector: ((Source) throws -> Observable<Result>)?) {
    self.source = source
    self.selector = selector
  }

  func makeSink(_ observer: Observer<Result>, cancel: any Cancelable) -> SelectingSink<Source, Result, Signal> {
    preconditionFailure("SelectingProducer.makeSink is abstract")
  }

  /// Inlined into a leaf's `super.run`, where `makeSink` is then a direct call.
  @inline(__always) override func run(_ observer: Observer<Result>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = makeSink(observer, cancel: cancel)
    let subscription = sink.run(source)
    return (consume sink, subscription)
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

  final func run(_ source: Observable<Source>) -> any Disposable {
    sourceSubscription.trySet(source.subscribe(self))
    return BinaryDisposable(sourceSubscription, innerSubscription)
  }
}
