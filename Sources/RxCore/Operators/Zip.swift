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

final class ZipProducer<Source, Result>: Producer<Result> {
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
final class ZipSink<Source, Result>: Sink<Source, Result> {
  let parent: ZipProducer<Source, Result>
  let drain = Drain<(Int, Event<Source>)>()
  let subscriptions: [SingleAssignmentDisposable]
  var queues: [RingBuffer<Source>]
  var numberOfNonEmpty = 0
  var sourceDone: [Bool]
  var numberOfDone = 0

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
      subscriptions[i].trySet(parent.sources[i].subscribe(IndexedObserver(parent: self, index: i) {
        self.submit($0, $1)
      }))
    }
    return CompositeDisposable(disposables: subscriptions)
  }

  func submit(_ index: Int, _ event: Event<Source>) {
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
      var arguments: [Source] = []
      arguments.reserveCapacity(n)
      numberOfNonEmpty = 0
      for i in 0..<n {
        arguments.append(queues[i].popFirst()!)
        if !queues[i].isEmpty { numberOfNonEmpty += 1 }
      }
      let result: Result
      do { result = try parent.resultSelector(arguments) } catch {
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
