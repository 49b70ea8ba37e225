/// The producers of one source and one parameter (the operator's function, or its value),
/// whose subscription is a sink made from that parameter and subscribed to the source
/// (`Sink.subscribe(to:)`, which a sink that keeps more subscriptions overrides): each
/// operator writes only `makeSink`. A leaf overrides `makeSink` and `run` (with `super.run`,
/// inlined, so that the leaf's `makeSink` is a direct call, and the sink's `subscribe(to:)`
/// too).
class UnaryProducer<Source, Result, Parameter>: Producer<Result> {
  let source: Observable<Source>
  let parameter: Parameter

  init(source: Observable<Source>, _ parameter: Parameter) {
    self.source = source
    self.parameter = parameter
  }

  func makeSink(_ observer: Observer<Result>, cancel: any Cancelable) -> Sink<Source, Result> {
    preconditionFailure("UnaryProducer.makeSink is abstract")
  }

  @inline(__always) override func run(_ observer: Observer<Result>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = makeSink(observer, cancel: cancel)
    let subscription = sink.subscribe(to: source)
    return (consume sink, subscription)
  }
}

extension UnaryProducer where Parameter == Void {
  /// The operators with no parameter (last, single, ignore_elements).
  convenience init(source: Observable<Source>) { self.init(source: source, ()) }
}
