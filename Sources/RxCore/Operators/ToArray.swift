extension Observable {
  /// Collects every element; emits them as one array when the source completes.
  public func toArray() -> Observable<[Element]> { ToArrayProducer(source: self, { $0 }) }
}

extension Observable where Element == Value {
  /// `toArray` for Value, chosen over the generic one (whose sink would run unspecialized).
  public func toArray() -> Observable<[Value]> { ValueToPlainArrayProducer(source: self, { $0 }) }

  /// `toArray` with the array packed into one element by `pack` (the C layer's array box):
  /// one specialized operator instead of toArray then map.
  public func toArray(pack: @escaping ([Value]) -> Value) -> Observable<Value> {
    ValueToArrayProducer(source: self, pack)
  }
}

// rx:value-leaf copy=makeSink super=run
// rx:value-leaf name=ValueToPlainArrayProducer args=Value,[Value] copy=makeSink super=run
class ToArrayProducer<Element, Result>: UnaryProducer<Element, Result, ([Element]) -> Result> {
  override func makeSink(_ observer: Observer<Result>, cancel: any Cancelable) -> Sink<Element, Result> {
    ToArraySink(pack: parameter, observer: observer, cancel: cancel)
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
