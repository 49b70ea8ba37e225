extension Observable {
  /// Forwards the elements that satisfy `predicate`; a thrown error fails the stream.
  public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
    FilterProducer(source: self, predicate: predicate, makeSink: nil)
  }
  public func filter(_ predicate: @escaping (Element) throws -> Bool,
                     makeSink: FilterProducer<Element>.MakeSink?) -> Observable<Element> {
    FilterProducer(source: self, predicate: predicate, makeSink: makeSink)
  }
}

public final class FilterProducer<Element>: Producer<Element> {
  public typealias MakeSink = (@escaping (Element) throws -> Bool, Observer<Element>, any Cancelable) -> FilterSink<Element>
  let source: Observable<Element>
  let predicate: (Element) throws -> Bool
  let makeSink: MakeSink?

  init(source: Observable<Element>, predicate: @escaping (Element) throws -> Bool, makeSink: MakeSink?) {
    self.source = source
    self.predicate = predicate
    self.makeSink = makeSink
  }

  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = makeSink?(predicate, observer, cancel) ?? FilterSink(predicate: predicate, observer: observer, cancel: cancel)
    return (sink, source.subscribe(sink))
  }
}

open class FilterSink<Element>: Sink<Element, Element> {
  @usableFromInline let predicate: (Element) throws -> Bool

  public init(predicate: @escaping (Element) throws -> Bool, observer: Observer<Element>, cancel: any Cancelable) {
    self.predicate = predicate
    super.init(observer: observer, cancel: cancel)
  }

  @inlinable open override func on(_ event: Event<Element>) {
    if isDisposed { return }
    switch event {
    case .next(let element):
      let pass: Bool
      do { pass = try predicate(element) } catch {
        forwardTerminal(.error(error))
        return
      }
      if pass { forwardOn(event) }
    case .error, .completed: forwardTerminal(event)
    }
  }
}
