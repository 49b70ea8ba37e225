extension Observable {
  /// Combines the latest element of every source each time one of them emits, once all
  /// have emitted. Completes when all have completed (or when the only sources left
  /// running can no longer produce a combination); the first error ends everything.
  /// With no sources: emits `resultSelector([])` and completes, as RxSwift does.
  public static func combineLatest<Source>(
    _ sources: [Observable<Source>], resultSelector: @escaping ([Source]) throws -> Element
  ) -> Observable<Element> {
    CombineLatestProducer(sources: sources, selector: .array(resultSelector))
  }
}

extension Observable where Element == Value {
  public static func combineLatest(
    _ sources: [Observable<Value>], resultSelector: @escaping ([Value]) throws -> Value
  ) -> Observable<Value> {
    ValueCombineLatestProducer(sources: sources, selector: .array(resultSelector))
  }

  /// `combineLatest` whose selector reads the latest elements in place (valid for the call):
  /// no array per combination.
  public static func combineLatest(
    _ sources: [Observable<Value>], bufferSelector: @escaping (UnsafeBufferPointer<Value>) throws -> Value
  ) -> Observable<Value> {
    ValueCombineLatestProducer(sources: sources, selector: .buffer(bufferSelector))
  }

  /// `combineLatest` with a selector in any of its forms (`.function`: an object shared by every
  /// subscription, called as a method, with no closure context retained per combination).
  @_spi(RxC) public static func combineLatest(_ sources: [Observable<Value>], selector: CombiningSelector<Value, Value>) -> Observable<Value> {
    ValueCombineLatestProducer(sources: sources, selector: selector)
  }
}

class CombineLatestProducer<Source, Result>: Producer<Result> {
  let sources: [Observable<Source>]
  let selector: CombiningSelector<Source, Result>

  init(sources: [Observable<Source>], selector: CombiningSelector<Source, Result>) {
    self.sources = sources
    self.selector = selector
  }

  /// The selector object for one subscription (a hook: the `Value` leaf's is specialized).
  func makeFunction() -> CombiningFunction<Source, Result> { selector.makeFunction() }

  override func run(_ observer: Observer<Result>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = CombineLatestSink(parent: self, observer: observer, cancel: cancel)
    let subscription = sink.run()
    return (consume sink, subscription)
  }
}

// rx:value-leaf copy=makeObserver super=submit,submitNext
/// Events of all sources are serialized through one Drain; the state below is touched only
/// by the draining thread (and by deinit, after it).
class CombineLatestSink<Source, Result>: IndexedSink<Source, Result> {
  let parent: CombineLatestProducer<Source, Result>
  let drain = Drain<(Int, Event<Source>)>()
  let subscriptions: [SingleAssignmentDisposable]
  /// Each source's latest element, in place (slot i is initialized once source i emitted):
  /// the selector reads them where they are.
  let latest: UnsafeMutablePointer<Source>
  /// Per source: `emitted`, `done`.
  let flags: UnsafeMutablePointer<UInt8>
  let count: Int
  var numberOfValues = 0
  var numberOfDone = 0
  /// The selector, called as a method of a `let` (no retain and release per combination).
  let combiner: CombiningFunction<Source, Result>
  static var emitted: UInt8 { 1 }
  static var done: UInt8 { 2 }

  init(parent: CombineLatestProducer<Source, Result>, observer: Observer<Result>, cancel: any Cancelable) {
    self.parent = parent
    count = parent.sources.count
    subscriptions = (0..<count).map { _ in SingleAssignmentDisposable() }
    latest = .allocate(capacity: count)
    flags = .allocate(capacity: count)
    flags.initialize(repeating: 0, count: count)
    combiner = parent.makeFunction()
    super.init(observer: observer, cancel: cancel)
  }

  deinit {
    for i in 0..<count where flags[i] & Self.emitted != 0 { (latest + i).deinitialize(count: 1) }
    latest.deallocate()
    flags.deallocate()
  }

  func run() -> any Disposable {
    if count == 0 {
      do {
        let result = try combiner.combine(UnsafeBufferPointer(start: latest, count: 0))
        forwardOn(.next(result))
        forwardTerminal(.completed)
      } catch {
        forwardTerminal(.error(error))
      }
      return NopDisposable.shared
    }
    for i in 0..<count {
      if wantsNoMoreEvents { break }
      subscriptions[i].trySet(parent.sources[i].subscribe(makeObserver(i)))
    }
    return CompositeDisposable(disposables: subscriptions)
  }

  /// The observer of the i-th source (a hook for the Value leaf).
  func makeObserver(_ index: Int) -> Observer<Source> {
    IndexedObserver(parent: self, index: index)
  }

  override func submit(_ index: Int, _ event: Event<Source>) {
    // Inline when the drain is free: the event is handled where it is, not copied into an item.
    drain.submit((index, event), inline: { handle(index, event) }) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item.0, item.1) } }
  }

  override func submitNext(_ index: Int, at element: UnsafePointer<Source>) {
    drain.submit((index, .next(element.pointee)), inline: { if !isDisposed { next(index, at: element) } }) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item.0, item.1) } }
  }

  /// An element of source `index` (drain-owned): kept as its latest, then combined once every
  /// source has one.
  private func next(_ index: Int, at element: UnsafePointer<Source>) {
    let n = count
    if flags[index] & Self.emitted == 0 {
      (latest + index).initialize(to: element.pointee)
      flags[index] |= Self.emitted
      numberOfValues += 1
    } else {
      latest[index] = element.pointee
    }
    if numberOfValues < n {
      // Every other source is done, and one of them never emitted: nothing can follow.
      let othersDone = numberOfDone - (flags[index] & Self.done != 0 ? 1 : 0)
      if othersDone == n - 1 { forwardTerminal(.completed) }
      return
    }
    // Bound where it is made and handed over: a `let` assigned in a `do` lives in memory, and
    // the event got a copy of it.
    do { forwardNext(owned: try combiner.combine(UnsafeBufferPointer(start: latest, count: n))) } catch {
      forwardTerminal(.error(error))
    }
  }

  private func handle(_ index: Int, _ event: Event<Source>) {
    if isDisposed { return }
    let n = count
    switch event {
    case .next(let element):
      _withUnprotectedUnsafePointer(to: element) { next(index, at: $0) }
    case .error(let error):
      forwardTerminal(.error(error))
    case .completed:
      if flags[index] & Self.done != 0 { return }
      flags[index] |= Self.done
      numberOfDone += 1
      if numberOfDone == n {
        forwardTerminal(.completed)
      } else {
        subscriptions[index].dispose()
      }
    }
  }
}

// rx:hand-leaf: `makeFunction` is the Value selector's (`makeValueFunction`), not the generic body.
// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueCombineLatestProducer: CombineLatestProducer<Value, Value> {
  override func makeFunction() -> CombiningFunction<Value, Value> { selector.makeValueFunction() }
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueCombineLatestSink(parent: self, observer: observer, cancel: cancel)
    let subscription = sink.run()
    return (consume sink, subscription)
  }
}
