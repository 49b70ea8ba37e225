// rx:value-leaf name=ValueCombineLatestProducer args=Value,Value,LatestElements<Value> copy=makeFunction,run
// rx:value-leaf name=ValueZipProducer args=Value,Value,QueuedElements<Value> copy=makeFunction,run
/// combine_latest and zip: one sink over N sources, told apart only by a `CombiningPolicy`
/// (which elements make a combination). The policy is a type parameter, so each sink is
/// compiled with its policy inlined: no call through a witness table per event.
class CombiningProducer<Source, Result, Policy: CombiningPolicy<Source>>: Producer<Result> {
  let sources: [Observable<Source>]
  let selector: CombiningSelector<Source, Result>

  /// The object a sink calls: the selector itself, or one that holds the closure form (one
  /// per subscription: the array form refills an array of its own).
  func makeFunction() -> CombiningFunction<Source, Result> {
    if case .function(let function) = selector { return function }
    return ClosureCombining(selector)
  }

  init(sources: [Observable<Source>], selector: CombiningSelector<Source, Result>) {
    self.sources = sources
    self.selector = selector
  }

  override func run(_ observer: Observer<Result>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = CombiningSink(parent: self, observer: observer, cancel: cancel)
    let subscription = sink.run()
    return (consume sink, subscription)
  }
}

/// Which elements make a combination: the per-source storage of one subscription, in plain
/// memory (freed by `release`), touched only by the sink's draining thread.
protocol CombiningPolicy<Source> {
  associatedtype Source
  init(count: Int)
  func release(count: Int)
  /// With no sources: whether the selector's result over none is emitted before completing.
  static var combinesNone: Bool { get }
  /// Where the selector reads a combination.
  var combination: UnsafeMutablePointer<Source> { get }
  /// Takes an element of source `index`: true when a combination stands at `combination`.
  mutating func take(_ index: Int, at element: UnsafePointer<Source>, count: Int) -> Bool
  /// After the selector's call over `combination` (it may have thrown).
  func combined(count: Int)
}

/// combine_latest: each source's latest element, in place (slot i is initialized once source
/// i emitted); every element after the first of each source makes a combination.
struct LatestElements<Source>: CombiningPolicy {
  let combination: UnsafeMutablePointer<Source>
  let emitted: UnsafeMutablePointer<Bool>
  var numberOfValues = 0

  init(count: Int) {
    combination = .allocate(capacity: count)
    emitted = .allocate(capacity: count)
    emitted.initialize(repeating: false, count: count)
  }

  func release(count: Int) {
    for i in 0..<count where emitted[i] { (combination + i).deinitialize(count: 1) }
    combination.deallocate()
    emitted.deallocate()
  }

  static var combinesNone: Bool { true }

  @inline(__always)
  mutating func take(_ index: Int, at element: UnsafePointer<Source>, count: Int) -> Bool {
    if !emitted[index] {
      (combination + index).initialize(to: element.pointee)
      emitted[index] = true
      numberOfValues += 1
    } else {
      combination[index] = element.pointee
    }
    return numberOfValues == count
  }

  /// The latest elements stay for the next combination.
  @inline(__always)
  func combined(count: Int) {}
}

/// zip: each source's waiting elements; the n-th elements of all sources make a combination,
/// moved out of the queues for the selector's call (and uninitialized between calls).
struct QueuedElements<Source>: CombiningPolicy {
  /// Plain memory, not an array of rings: appending to a ring in an array checks two
  /// buffers for uniqueness per element.
  let queues: UnsafeMutablePointer<RingBuffer<Source>>
  let combination: UnsafeMutablePointer<Source>
  var numberOfNonEmpty = 0

  init(count: Int) {
    queues = .allocate(capacity: count)
    queues.initialize(repeating: RingBuffer(), count: count)
    combination = .allocate(capacity: count)
  }

  func release(count: Int) {
    queues.deinitialize(count: count)
    queues.deallocate()
    combination.deallocate()
  }

  static var combinesNone: Bool { false }

  @inline(__always)
  mutating func take(_ index: Int, at element: UnsafePointer<Source>, count n: Int) -> Bool {
    if queues[index].isEmpty && numberOfNonEmpty == n - 1 {
      // Every other source has one waiting: this element completes a combination as it
      // is, without a turn through its queue.
      (combination + index).initialize(to: element.pointee)
      takeFirsts(except: index, count: n)
      return true
    }
    queues[index].append(element.pointee)
    if queues[index].count == 1 { numberOfNonEmpty += 1 }
    if numberOfNonEmpty < n { return false }
    takeFirsts(except: -1, count: n)
    return true
  }

  /// Moves the first waiting element of every queue but `skipped` into `combination`.
  @inline(__always)
  private mutating func takeFirsts(except skipped: Int, count: Int) {
    numberOfNonEmpty = 0
    for i in 0..<count where i != skipped {
      (combination + i).initialize(to: queues[i].popFirst().unsafelyUnwrapped)
      if !queues[i].isEmpty { numberOfNonEmpty += 1 }
    }
  }

  /// One by one: a run's deinitialize is a runtime call (swift_arrayDestroy) per event.
  @inline(__always)
  func combined(count: Int) {
    var i = 0
    while i < count {
      (combination + i).deinitialize(count: 1)
      i += 1
    }
  }
}

// rx:value-leaf name=ValueCombineLatestSink args=Value,Value,LatestElements<Value> copy=makeObserver super=submit,submitNext
// rx:value-leaf name=ValueZipSink args=Value,Value,QueuedElements<Value> copy=makeObserver super=submit,submitNext
/// Events of all sources are serialized through one Drain; the state below is touched only
/// by the draining thread (and by deinit, after it).
class CombiningSink<Source, Result, Policy: CombiningPolicy<Source>>: IndexedSink<Source, Result> {
  let parent: CombiningProducer<Source, Result, Policy>
  let drain = Drain<(Int, Event<Source>)>()
  var policy: Policy
  let sourceDone: UnsafeMutablePointer<Bool>
  let count: Int
  var numberOfDone = 0
  /// The selector, called as a method of a `let` (no retain and release per combination).
  let combiner: CombiningFunction<Source, Result>

  init(parent: CombiningProducer<Source, Result, Policy>, observer: Observer<Result>, cancel: any Cancelable) {
    self.parent = parent
    count = parent.sources.count
    policy = Policy(count: count)
    sourceDone = .allocate(capacity: count)
    sourceDone.initialize(repeating: false, count: count)
    combiner = parent.makeFunction()
    super.init(count: count, observer: observer, cancel: cancel)
  }

  deinit {
    policy.release(count: count)
    sourceDone.deallocate()
  }

  func run() -> any Disposable {
    if count == 0 {
      if Policy.combinesNone {
        do {
          let result = try combiner.combine(UnsafeBufferPointer(start: policy.combination, count: 0))
          forwardOn(.next(result))
        } catch {
          forwardTerminal(.error(error))
          return NopDisposable.shared
        }
      }
      forwardTerminal(.completed)
      return NopDisposable.shared
    }
    return subscribeAll(parent.sources)
  }

  override func submit(_ index: Int, _ event: Event<Source>) {
    // Inline when the drain is free: the event is handled where it is, not copied into an item.
    drain.submit((index, event), inline: { handle(index, event) }) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item.0, item.1) } }
  }

  override func submitNext(_ index: Int, at element: UnsafePointer<Source>) {
    drain.submit((index, .next(element.pointee)), inline: { if !isDisposed { next(index, at: element) } }) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item.0, item.1) } }
  }

  /// An element of source `index` (drain-owned): combined when the policy has a combination;
  /// otherwise, with every other source done, nothing can follow.
  private func next(_ index: Int, at element: UnsafePointer<Source>) {
    let n = count
    if !policy.take(index, at: element, count: n) {
      // Every other source is done (this one, emitting, is not: the grammar has no element
      // after a completion), so no combination can follow.
      if numberOfDone == n - 1 { forwardTerminal(.completed) }
      return
    }
    let result: Result
    do {
      defer { policy.combined(count: n) }
      result = try combiner.combine(UnsafeBufferPointer(start: policy.combination, count: n))
    } catch {
      forwardTerminal(.error(error))
      return
    }
    forwardNext(owned: consume result)  // moved: a `let` assigned in a `do` is otherwise copied
  }

  private func handle(_ index: Int, _ event: Event<Source>) {
    if isDisposed { return }
    switch event {
    case .next(let element):
      _withUnprotectedUnsafePointer(to: element) { next(index, at: $0) }
    case .error(let error):
      forwardTerminal(.error(error))
    case .completed:
      if sourceDone[index] { return }
      sourceDone[index] = true
      numberOfDone += 1
      if numberOfDone == count {
        forwardTerminal(.completed)
      } else {
        subscriptions[index].dispose()
      }
    }
  }
}
