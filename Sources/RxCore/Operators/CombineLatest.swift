extension Observable {
  /// Combines the latest element of every source each time one of them emits, once all
  /// have emitted. Completes when all have completed (or when the only sources left
  /// running can no longer produce a combination); the first error ends everything.
  /// With no sources: emits `resultSelector([])` and completes, as RxSwift does.
  public static func combineLatest<Source>(
    _ sources: [Observable<Source>], resultSelector: @escaping ([Source]) throws -> Element
  ) -> Observable<Element> {
    CombineLatestProducer(sources: sources, resultSelector: resultSelector)
  }
}

extension Observable where Element == Value {
  public static func combineLatest(
    _ sources: [Observable<Value>], resultSelector: @escaping ([Value]) throws -> Value
  ) -> Observable<Value> {
    ValueCombineLatestProducer(sources: sources, resultSelector: resultSelector)
  }
}

class CombineLatestProducer<Source, Result>: Producer<Result> {
  let sources: [Observable<Source>]
  let resultSelector: ([Source]) throws -> Result

  init(sources: [Observable<Source>], resultSelector: @escaping ([Source]) throws -> Result) {
    self.sources = sources
    self.resultSelector = resultSelector
  }

  override func run(_ observer: Observer<Result>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = CombineLatestSink(parent: self, observer: observer, cancel: cancel)
    return (sink, sink.run())
  }
}

/// Events of all sources are serialized through one Drain; the state below is touched only
/// by the draining thread.
class CombineLatestSink<Source, Result>: Sink<Source, Result> {
  let parent: CombineLatestProducer<Source, Result>
  let drain = Drain<(Int, Event<Source>)>()
  let subscriptions: [SingleAssignmentDisposable]
  var values: [Source?]
  var numberOfValues = 0
  var sourceDone: [Bool]
  var numberOfDone = 0
  /// The selector's argument, refilled for each combination: no allocation per event.
  var arguments: [Source] = []

  init(parent: CombineLatestProducer<Source, Result>, observer: Observer<Result>, cancel: any Cancelable) {
    self.parent = parent
    let n = parent.sources.count
    subscriptions = (0..<n).map { _ in SingleAssignmentDisposable() }
    values = Array(repeating: nil, count: n)
    sourceDone = Array(repeating: false, count: n)
    super.init(observer: observer, cancel: cancel)
  }

  func run() -> any Disposable {
    let n = parent.sources.count
    if n == 0 {
      do {
        let result = try parent.resultSelector([])
        forwardOn(.next(result))
        forwardTerminal(.completed)
      } catch {
        forwardTerminal(.error(error))
      }
      return NopDisposable.shared
    }
    for i in 0..<n {
      if wantsNoMoreEvents { break }
      subscriptions[i].trySet(parent.sources[i].subscribe(makeObserver(i)))
    }
    return CompositeDisposable(disposables: subscriptions)
  }

  /// The observer of the i-th source (a hook for the Value leaf).
  func makeObserver(_ index: Int) -> Observer<Source> {
    IndexedObserver(parent: self, index: index) { self.submit($0, $1) }
  }

  final func submit(_ index: Int, _ event: Event<Source>) {
    drain.submit((index, event)) { self.handle($0.0, $0.1) }
  }

  private func handle(_ index: Int, _ event: Event<Source>) {
    if isDisposed { return }
    let n = values.count
    switch event {
    case .next(let element):
      if values[index] == nil { numberOfValues += 1 }
      values[index] = element
      if numberOfValues < n {
        // Every other source is done, and one of them never emitted: nothing can follow.
        let othersDone = numberOfDone - (sourceDone[index] ? 1 : 0)
        if othersDone == n - 1 { forwardTerminal(.completed) }
        return
      }
      arguments.reserveCapacity(n)
      for value in values { arguments.append(value!) }
      let result: Result
      do {
        defer { arguments.removeAll(keepingCapacity: true) }
        result = try parent.resultSelector(arguments)
      } catch {
        forwardTerminal(.error(error))
        return
      }
      forwardOn(.next(result))
    case .error(let error):
      forwardTerminal(.error(error))
    case .completed:
      if sourceDone[index] { return }
      sourceDone[index] = true
      numberOfDone += 1
      if numberOfDone == n {
        forwardTerminal(.completed)
      } else {
        subscriptions[index].dispose()
      }
    }
  }
}

// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueCombineLatestProducer: CombineLatestProducer<Value, Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueCombineLatestSink(parent: self, observer: observer, cancel: cancel)
    return (sink, sink.run())
  }
}

final class ValueCombineLatestSink: CombineLatestSink<Value, Value> {
  override func makeObserver(_ index: Int) -> Observer<Value> {
    ValueIndexedObserver(parent: self, index: index) { self.submit($0, $1) }
  }
}
