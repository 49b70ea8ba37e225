extension Observable {
  /// Combines the n-th elements of all sources. Completes when all sources have completed,
  /// or when an element arrives while every other source is done (RxSwift's rule); the
  /// first error ends everything. With no sources: completes at once.
  public static func zip<Source>(
    _ sources: [Observable<Source>], resultSelector: @escaping ([Source]) throws -> Element
  ) -> Observable<Element> {
    ZipProducer(sources: sources, selector: .array(resultSelector))
  }
}

extension Observable where Element == Value {
  public static func zip(
    _ sources: [Observable<Value>], resultSelector: @escaping ([Value]) throws -> Value
  ) -> Observable<Value> {
    ValueZipProducer(sources: sources, selector: .array(resultSelector))
  }

  /// `zip` whose selector reads each combination in place (valid for the call): no array
  /// per combination.
  public static func zip(
    _ sources: [Observable<Value>], bufferSelector: @escaping (UnsafeBufferPointer<Value>) throws -> Value
  ) -> Observable<Value> {
    ValueZipProducer(sources: sources, selector: .buffer(bufferSelector))
  }

  /// `zip` with a selector in any of its forms (`.function`: an object shared by every
  /// subscription, called as a method, with no closure context retained per combination).
  @_spi(RxC) public static func zip(_ sources: [Observable<Value>], selector: CombiningSelector<Value, Value>) -> Observable<Value> {
    ValueZipProducer(sources: sources, selector: selector)
  }
}

class ZipProducer<Source, Result>: Producer<Result> {
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
    let sink = ZipSink(parent: self, observer: observer, cancel: cancel)
    let subscription = sink.run()
    return (consume sink, subscription)
  }
}

// rx:value-leaf copy=makeObserver super=submit,submitNext
/// Events of all sources are serialized through one Drain; the state below is touched only
/// by the draining thread (and by deinit, after it).
class ZipSink<Source, Result>: IndexedSink<Source, Result> {
  let parent: ZipProducer<Source, Result>
  let drain = Drain<(Int, Event<Source>)>()
  let subscriptions: [SingleAssignmentDisposable]
  /// Each source's waiting elements. Plain memory, not an array of rings: appending to a
  /// ring in an array checks two buffers for uniqueness per element.
  let queues: UnsafeMutablePointer<RingBuffer<Source>>
  /// One combination, moved out of the queues for the selector's call (uninitialized
  /// between combinations).
  let combination: UnsafeMutablePointer<Source>
  let sourceDone: UnsafeMutablePointer<Bool>
  let count: Int
  var numberOfNonEmpty = 0
  var numberOfDone = 0
  /// The selector, called as a method of a `let` (no retain and release per combination).
  let combiner: CombiningFunction<Source, Result>

  init(parent: ZipProducer<Source, Result>, observer: Observer<Result>, cancel: any Cancelable) {
    self.parent = parent
    count = parent.sources.count
    subscriptions = (0..<count).map { _ in SingleAssignmentDisposable() }
    queues = .allocate(capacity: count)
    queues.initialize(repeating: RingBuffer(), count: count)
    combination = .allocate(capacity: count)
    sourceDone = .allocate(capacity: count)
    sourceDone.initialize(repeating: false, count: count)
    combiner = parent.makeFunction()
    super.init(observer: observer, cancel: cancel)
  }

  deinit {
    queues.deinitialize(count: count)
    queues.deallocate()
    combination.deallocate()
    sourceDone.deallocate()
  }

  func run() -> any Disposable {
    if count == 0 {
      forwardTerminal(.completed)
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

  /// An element of source `index` (drain-owned): queued, or combined at once when it
  /// completes a combination.
  private func next(_ index: Int, at element: UnsafePointer<Source>) {
    let n = count
    if queues[index].isEmpty && numberOfNonEmpty == n - 1 {
      // Every other source has one waiting: this element completes a combination as it
      // is, without a turn through its queue.
      (combination + index).initialize(to: element.pointee)
      takeFirsts(except: index)
      return combineAndForward()
    }
    queues[index].append(element.pointee)
    if queues[index].count == 1 { numberOfNonEmpty += 1 }
    if numberOfNonEmpty < n {
      if numberOfDone == n - 1 { forwardTerminal(.completed) }
      return
    }
    takeFirsts(except: -1)
    combineAndForward()
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

  /// Moves the first waiting element of every queue but `skipped` into `combination`.
  @inline(__always)
  private func takeFirsts(except skipped: Int) {
    numberOfNonEmpty = 0
    for i in 0..<count where i != skipped {
      (combination + i).initialize(to: queues[i].popFirst().unsafelyUnwrapped)
      if !queues[i].isEmpty { numberOfNonEmpty += 1 }
    }
  }

  /// The selector over `combination` (emptied after), and its result on.
  @inline(__always)
  private func combineAndForward() {
    let result: Result
    do {
      // One by one: a run's deinitialize is a runtime call (swift_arrayDestroy) per event.
      defer { for i in 0..<count { (combination + i).deinitialize(count: 1) } }
      result = try combiner.combine(UnsafeBufferPointer(start: combination, count: count))
    } catch {
      forwardTerminal(.error(error))
      return
    }
    forwardNext(owned: consume result)  // moved: a `let` assigned in a `do` is otherwise copied
  }
}

// rx:hand-leaf: `makeFunction` is the Value selector's (`makeValueFunction`), not the generic body.
// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValueZipProducer: ZipProducer<Value, Value> {
  override func makeFunction() -> CombiningFunction<Value, Value> { selector.makeValueFunction() }
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueZipSink(parent: self, observer: observer, cancel: cancel)
    let subscription = sink.run()
    return (consume sink, subscription)
  }
}
