extension Observable {
  /// Drops elements equal (by `comparer`) to the previous one; a thrown error fails the stream.
  public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool) -> Observable<Element> {
    DistinctUntilChangedProducer(source: self, comparer: comparer)
  }
}

extension Observable where Element: Equatable {
  public func distinctUntilChanged() -> Observable<Element> { distinctUntilChanged(==) }
}

extension Observable where Element == Value {
  public func distinctUntilChanged(_ comparer: @escaping (Value, Value) throws -> Bool) -> Observable<Value> {
    ValueDistinctUntilChangedProducer(source: self, comparer: comparer)
  }
}

class DistinctUntilChangedProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  let comparer: (Element, Element) throws -> Bool

  init(source: Observable<Element>, comparer: @escaping (Element, Element) throws -> Bool) {
    self.source = source
    self.comparer = comparer
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = DistinctUntilChangedSink(comparer: comparer, observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

class DistinctUntilChangedSink<Element>: Sink<Element, Element> {
  let comparer: (Element, Element) throws -> Bool
  var previous: Element?

  init(comparer: @escaping (Element, Element) throws -> Bool, observer: Observer<Element>, cancel: any Cancelable) {
    self.comparer = comparer
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) {
    if isDisposed { return }
    switch event {
    case .next(let element):
      if let previous {
        let same: Bool
        do { same = try comparer(previous, element) } catch {
          forwardTerminal(.error(error))
          return
        }
        if same { return }
      }
      previous = element
      forwardOn(event)
    case .error, .completed:
      previous = nil
      forwardTerminal(event)
    }
  }
}

// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueDistinctUntilChangedProducer: DistinctUntilChangedProducer<Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueDistinctUntilChangedSink(comparer: comparer, observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

final class ValueDistinctUntilChangedSink: DistinctUntilChangedSink<Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
}
