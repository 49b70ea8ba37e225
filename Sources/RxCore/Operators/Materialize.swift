extension Observable {
  /// Each event as an element; after the source's terminal event (emitted as an element)
  /// the stream completes.
  public func materialize() -> Observable<Event<Element>> { MaterializeProducer(source: self, pack: { $0 }) }
}

extension Observable where Element == Value {
  /// `materialize` with each event packed into one element by `pack` (the C layer's event
  /// box): one specialized operator instead of materialize then map.
  public func materialize(pack: @escaping (Event<Value>) -> Value) -> Observable<Value> {
    ValueMaterializeProducer(source: self, pack: pack)
  }
}

class MaterializeProducer<Element, Result>: Producer<Result> {
  let source: Observable<Element>
  let pack: (Event<Element>) -> Result

  init(source: Observable<Element>, pack: @escaping (Event<Element>) -> Result) {
    self.source = source
    self.pack = pack
  }

  override func run(_ observer: Observer<Result>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = MaterializeSink(pack: pack, observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

class MaterializeSink<Element, Result>: Sink<Element, Result> {
  let pack: (Event<Element>) -> Result

  init(pack: @escaping (Event<Element>) -> Result, observer: Observer<Result>, cancel: any Cancelable) {
    self.pack = pack
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) {
    forwardOn(.next(pack(event)))
    if event.isStopEvent { forwardTerminal(.completed) }
  }
}

// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueMaterializeProducer: MaterializeProducer<Value, Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueMaterializeSink(pack: pack, observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

final class ValueMaterializeSink: MaterializeSink<Value, Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { super.on(.next(Value.copy(at: element))) }
}
