extension Observable {
  /// Collects every element; emits them as one array when the source completes.
  public func toArray() -> Observable<[Element]> { ToArrayProducer(source: self, pack: { $0 }) }
}

extension Observable where Element == Value {
  /// `toArray` for Value, chosen over the generic one (whose sink would run unspecialized).
  public func toArray() -> Observable<[Value]> { ValueToPlainArrayProducer(source: self, pack: { $0 }) }

  /// `toArray` with the array packed into one element by `pack` (the C layer's array box):
  /// one specialized operator instead of toArray then map.
  public func toArray(pack: @escaping ([Value]) -> Value) -> Observable<Value> {
    ValueToArrayProducer(source: self, pack: pack)
  }
}

// rx:value-leaf copy=run
// rx:value-leaf name=ValueToPlainArrayProducer args=Value,[Value] copy=run
class ToArrayProducer<Element, Result>: Producer<Result> {
  let source: Observable<Element>
  let pack: ([Element]) -> Result

  init(source: Observable<Element>, pack: @escaping ([Element]) -> Result) {
    self.source = source
    self.pack = pack
  }

  override func run(_ observer: Observer<Result>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ToArraySink(pack: pack, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

// rx:value-leaf on next={elements.append(element.pointee)}
// rx:value-leaf name=ValueToPlainArraySink args=Value,[Value] on next={elements.append(element.pointee)}
class ToArraySink<Element, Result>: Sink<Element, Result> {
  let pack: ([Element]) -> Result
  var elements: [Element] = []

  init(pack: @escaping ([Element]) -> Result, observer: Observer<Result>, cancel: any Cancelable) {
    self.pack = pack
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) {
    switch event {
    case .next(let element): elements.append(element)  // as onNext(at:) does
    case .error(let error): forwardTerminal(.error(error))
    case .completed:
      let all = elements
      elements = []
      forwardOn(.next(pack(all)))
      forwardTerminal(.completed)
    }
  }
}
