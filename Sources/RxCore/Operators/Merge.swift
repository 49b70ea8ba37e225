extension Observable {
  /// Merges the elements of all `sources`. Completes when all have completed (at once for
  /// none); the first error ends everything.
  public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
    SequenceObservable(ContiguousArray(sources)).flatMap { $0 }
  }

  /// `merge` with at most `maxConcurrent` sources subscribed at once (0: no limit); the
  /// next is subscribed when one completes.
  public static func merge(_ sources: [Observable<Element>], maxConcurrent: Int) -> Observable<Element> {
    SequenceObservable(ContiguousArray(sources)).flatMap(maxConcurrent: maxConcurrent) { $0 }
  }
}

extension Observable where Element == Value {
  public static func merge(_ sources: [Observable<Value>]) -> Observable<Value> {
    ValueMergeProducer(sources: ContiguousArray(sources), maxConcurrent: 0)
  }

  public static func merge(_ sources: [Observable<Value>], maxConcurrent: Int) -> Observable<Value> {
    ValueMergeProducer(sources: ContiguousArray(sources), maxConcurrent: maxConcurrent)
  }
}

// rx:hand-leaf: not a leaf of a generic producer: merge of an array of Value sources.
/// `merge` for Value: a FlatMapSink over the sources that runs the array's loop itself
/// (`run(count:)`, the same events as subscribing a SequenceObservable), with Value leaves.
final class ValueMergeProducer: Producer<Value> {
  let sources: ContiguousArray<Observable<Value>>
  let maxConcurrent: Int

  init(sources: ContiguousArray<Observable<Value>>, maxConcurrent: Int) {
    self.sources = sources
    self.maxConcurrent = maxConcurrent
  }

  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueMergeSink(selector: nil, observer: observer, cancel: cancel, maxConcurrent: maxConcurrent)
    let sources = self.sources
    let subscription = sink.run(count: sources.count) { sources[$0] }
    return (consume sink, subscription)
  }
}

// rx:hand-leaf: selects each source as it is (`select` overridden), not the generic body.
final class ValueMergeSink: FlatMapSink<Observable<Value>, Value> {
  override func on(_ event: Event<Observable<Value>>) { super.on(event) }
  override func dispose() { super.dispose() }
  override func select(_ element: Observable<Value>) throws -> Selected { .observable(element) }
  override func makeInner() -> FlatMapInner<Observable<Value>, Value> { ValueMergeInner(parent: self) }
}
