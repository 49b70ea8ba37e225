extension Observable {
  /// Combines the n-th elements of all sources. Completes when all sources have completed,
  /// or when an element arrives while every other source is done (RxSwift's rule); the
  /// first error ends everything. With no sources: completes at once.
  public static func zip<Source>(
    _ sources: [Observable<Source>], resultSelector: @escaping ([Source]) throws -> Element
  ) -> Observable<Element> {
    ZipProducer(sources: sources, resultSelector: resultSelector)
  }
}

extension Observable where Element == Value {
  public static func zip(
    _ sources: [Observable<Value>], resultSelector: @escaping ([Value]) throws -> Value
  ) -> Observable<Value> {
    ValueZipProducer(sources: sources, resultSelector: resultSelector)
  }
}

class ZipProducer<Source, Result>: Producer<Result> {
  let sources: [Observable<Source>]
  let resultSelector: ([Source]) throws -> Result

  init(sources: [Observable<Source>], resultSelector: @escaping ([Source]) throws -> Result) {
    self.sources = sources
    self.resultSelector = resultSelector
  }

  override func run(_ observer: Observer<Result>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ZipSink(parent: self, observer: observer, cancel: cancel)
    return (sink, sink.run())
  }
}

/// Events of all sources are serialized through one Drain; the state below is touched only
/// by the draining thread.
class ZipSink<Source, Result>: Sink<Source, Result> {
  let parent: ZipProducer<Source, Result>
  let drain = Drain<(Int, Event<Source>)>()
  let subscriptions: [SingleAssignmentDisposable]
  var queues: [RingBuffer<Source>]
  var numberOfNonEmpty = 0
  var sourceDone: [Bool]
  var numberOfDone = 0
  /// The selector's argument, refilled for each combination: no allocation per event.
  var arguments: [Source] = []

  init(parent: ZipProducer<Source, Result>, observer: Observer<Result>, cancel: any Cancelable) {
    self.parent = parent
    let n = parent.sources.count
    subscriptions = (0..<n).map { _ in SingleAssignmentDisposable() }
    queues = Array(repeating: RingBuffer(), count: n)
    sourceDone = Array(repeating: false, count: n)
    super.init(observer: observer, cancel: cancel)
  }

  func run() -> any Disposable {
    let n = parent.sources.count
    if n == 0 {
      forwardTerminal(.completed)
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
    let n = queues.count
    switch event {
    case .next(let element):
      queues[index].append(element)
      if queues[index].count == 1 { numberOfNonEmpty += 1 }
      if numberOfNonEmpty < n {
        if numberOfDone == n - 1 { forwardTerminal(.completed) }
        return
      }
      arguments.reserveCapacity(n)
      numberOfNonEmpty = 0
      for i in 0..<n {
        arguments.append(queues[i].popFirst()!)
        if !queues[i].isEmpty { numberOfNonEmpty += 1 }
      }
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
final class ValueZipProducer: ZipProducer<Value, Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueZipSink(parent: self, observer: observer, cancel: cancel)
    return (sink, sink.run())
  }
}

final class ValueZipSink: ZipSink<Value, Value> {
  override func makeObserver(_ index: Int) -> Observer<Value> {
    ValueIndexedObserver(parent: self, index: index) { self.submit($0, $1) }
  }
}
