extension Observable {
  /// The elements of each source in turn: the next is subscribed after the previous one
  /// completed. Completes after the last one (at once for none).
  public static func concat(_ sources: [Observable<Element>]) -> Observable<Element> {
    SequenceObservable(ContiguousArray(sources)).concatMap { $0 }
  }

  /// This sequence, then `other`.
  public func concat(_ other: Observable<Element>) -> Observable<Element> {
    Observable.concat([self, other])
  }
}

extension Observable where Element == Value {
  public static func concat(_ sources: [Observable<Value>]) -> Observable<Value> {
    ValueConcatProducer(source: ValueConcatSources(ContiguousArray(sources)), selector: { $0 })
  }

  public func concat(_ other: Observable<Value>) -> Observable<Value> {
    Observable.concat([self, other])
  }
}

// `concat` for Value: concatMap over the sources, with Value leaves (see Value).
final class ValueConcatProducer: ConcatMapProducer<Observable<Value>, Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueConcatSink(selector: selector, observer: observer, cancel: cancel)
    let subscription = sink.run(source)
    return (consume sink, subscription)
  }
}

final class ValueConcatSink: ConcatMapSink<Observable<Value>, Value> {
  override func on(_ event: Event<Observable<Value>>) { super.on(event) }
  override func makeInner() -> ConcatMapInner<Observable<Value>, Value> { ValueConcatInner(parent: self) }
  override func select(_ element: Observable<Value>) throws -> Selected { .observable(element) }
  override func runFused(_ inner: Observable<Value>, arriving: Bool) -> Bool { runFusedValue(inner, arriving: arriving) }
}

final class ValueConcatInner: ConcatMapInner<Observable<Value>, Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { parent.submitInnerNext(at: element) }
  override var wantsNoMoreEvents: Bool { super.wantsNoMoreEvents }
}

// The sources, as a sequence whose `run` is specialized (it runs once per subscription).
final class ValueConcatSources: SequenceObservable<Observable<Value>> {
  override func run(_ observer: Observer<Observable<Value>>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    super.run(observer, cancel: cancel)
  }
}
