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

/// The producers of one parameter value and no source (generate, timer): each writes only
/// `run`.
class ParameterProducer<Element, Parameter>: Producer<Element> {
  let parameter: Parameter

  init(_ parameter: Parameter) { self.parameter = parameter }
}

extension UnaryProducer where Parameter == Void {
  /// The operators with no parameter (last, single, ignore_elements).
  convenience init(source: Observable<Source>) { self.init(source: source, ()) }
}

/// A sink made from its observer alone (ignore_elements, last, single): `SinkProducer`
/// builds it, so that such an operator is its sink and nothing more.
protocol ObserverMadeSink: AnyObject {
  associatedtype Element
  init(observer: Observer<Element>, cancel: any Cancelable)
}

// rx:value-leaf name=ValueIgnoreElementsProducer args=Value,IgnoreElementsSink<Value> copy=makeSink super=run
// rx:value-leaf name=ValueLastProducer args=Value,LastSink<Value> copy=makeSink super=run
// rx:value-leaf name=ValueSingleProducer args=Value,SingleSink<Value> copy=makeSink super=run
/// The producer of the operators whose sink is made from its observer alone.
class SinkProducer<Element, S: Sink<Element, Element> & ObserverMadeSink>: UnaryProducer<Element, Element, Void>
  where S.Element == Element
{
  override func makeSink(_ observer: Observer<Element>, cancel: any Cancelable) -> Sink<Element, Element> {
    S(observer: observer, cancel: cancel)
  }
}
