/// The selector forms of the ABI's element type, for both operators.
extension Observable where Element == Value {
  /// `combineLatest` whose selector reads the latest elements in place (valid for the call):
  /// no array per combination.
  public static func combineLatest(_ sources: [Observable<Value>], bufferSelector: @escaping (UnsafeBufferPointer<Value>) throws -> Value) -> Observable<Value> {
    ValueCombineLatestProducer(sources: sources, selector: .buffer(bufferSelector))
  }

  /// `zip` whose selector reads each combination in place (valid for the call): no array
  /// per combination.
  public static func zip(_ sources: [Observable<Value>], bufferSelector: @escaping (UnsafeBufferPointer<Value>) throws -> Value) -> Observable<Value> {
    ValueZipProducer(sources: sources, selector: .buffer(bufferSelector))
  }

  /// Either operator with a selector in any of its forms (`.function`: an object shared by
  /// every subscription, called as a method, with no closure context retained per combination).
  @_spi(RxC) public static func combineLatest(_ sources: [Observable<Value>], selector: CombiningSelector<Value, Value>) -> Observable<Value> {
    ValueCombineLatestProducer(sources: sources, selector: selector)
  }

  @_spi(RxC) public static func zip(_ sources: [Observable<Value>], selector: CombiningSelector<Value, Value>) -> Observable<Value> {
    ValueZipProducer(sources: sources, selector: selector)
  }
}

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
    start(CombiningSink(parent: self, observer: observer, cancel: cancel))
  }
}

// rx:value-leaf name=ValueCombineLatestSink args=Value,Value,LatestElements<Value> copy=makeObserver map=CombiningObserver:ValueCombineLatestObserver
// rx:value-leaf name=ValueZipSink args=Value,Value,QueuedElements<Value> copy=makeObserver map=CombiningObserver:ValueZipObserver
/// Events of all sources are serialized through one Drain; the state below is touched only
/// by the draining thread (and by deinit, after it).
class CombiningSink<Source, Result, Policy: CombiningPolicy<Source>>: IndexedSink<Source, Result>, SelfSubscribingSink {
  let parent: CombiningProducer<Source, Result, Policy>
  let drain = Drain<(Int, Event<Source>)>()
  var policy: Policy
  let sourceDone: UnsafeMutablePointer<Bool>
  let count: Int
  var numberOfDone = 0
  /// The selector, called as a method of a `let` (no retain and release per combination).
  let combiner: CombiningFunction<Source, Result>
  /// The combiner's argument buffer (`CombiningFunction.apply`; nil when it keeps none), and
  /// whether it holds the combination before the element just taken (false until the first
  /// call, and for a policy whose combinations are new each time).
  let arguments: UnsafeMutableRawPointer?
  var argumentsCurrent = false

  init(parent: CombiningProducer<Source, Result, Policy>, observer: Observer<Result>, cancel: any Cancelable) {
    self.parent = parent
    count = parent.sources.count
    policy = Policy(count: count)
    sourceDone = .allocate(capacity: count)
    sourceDone.initialize(repeating: false, count: count)
    combiner = parent.makeFunction()
    let size = count * combiner.argumentStride
    arguments = size > 0 ? .allocate(byteCount: size, alignment: 16) : nil
    super.init(count: count, observer: observer, cancel: cancel)
  }

  deinit {
    policy.release(count: count)
    sourceDone.deallocate()
    arguments?.deallocate()
  }

  func run() -> any Disposable {
    if count == 0 {
      if Policy.combinesNone && !combine(changed: -1) { return NopDisposable.shared }
      forwardTerminal(.completed)
      return NopDisposable.shared
    }
    return subscribeAll(parent.sources)
  }

  override func makeObserver(_ index: Int) -> Observer<Source> {
    CombiningObserver(parent: self, index: index)
  }

  /// One event of source `index`; final, so the observer's call is direct (no vtable hop).
  final func deliver(_ index: Int, _ event: Event<Source>) {
    // Inline when the drain is free: the event is handled where it is, not copied into an item.
    @inline(__always) func runInline() { handle(index, event) }
    drain.submit((index, event), inline: runInline) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item.0, item.1) } }
  }

  /// The drain's `submit` spelled out: its `inline` closure, this big, stayed a call of its own.
  final func deliverNext(_ index: Int, at element: UnsafePointer<Source>) {
    // (Closure literals at each call: a closure in a `let` is allocated per call.)
    let me = Unmanaged.passUnretained(self)
    if drain.enter({ item in me._withUnsafeGuaranteedRef { $0.handle(item.0, item.1) } }) {
      if !isDisposed { next(index, at: element) }
      drain.exit { item in me._withUnsafeGuaranteedRef { $0.handle(item.0, item.1) } }
    } else {
      drain.submitQueued((index, .next(element.pointee))) { item in me._withUnsafeGuaranteedRef { $0.handle(item.0, item.1) } }
    }
  }

  /// An element of source `index` (drain-owned): combined when the policy has a combination;
  /// otherwise, with every other source done, nothing can follow. Inlined into
  /// `submitNext`: one call frame per element, not two.
  @inline(__always)
  private func next(_ index: Int, at element: UnsafePointer<Source>) {
    let n = count
    if !policy.take(index, at: element, count: n) {
      // Every other source is done (this one, emitting, is not: the grammar has no element
      // after a completion), so no combination can follow.
      if numberOfDone == n - 1 { forwardTerminal(.completed) }
      return
    }
    combine(changed: argumentsCurrent ? index : -1)
  }

  /// Calls the selector over the policy's combination and forwards its result, made in
  /// place and handed over by pointer. False if it threw (the error forwarded).
  @inline(__always) @discardableResult
  private func combine(changed: Int) -> Bool {
    let n = count
    return _withUnprotectedUnsafeTemporaryAllocation(of: Result.self, capacity: 1) { slot in
      // (Unprotected: no stack-protector check per element for this slot.)
      let result = slot.baseAddress.unsafelyUnwrapped
      // `combined` on both ways out, not in a `defer`: that one stayed a call of its own.
      do {
        try combiner.apply(policy.combination, count: n, arguments: arguments, changed: changed, into: result)
      } catch {
        policy.combined(count: n)
        forwardTerminal(.error(error))
        return false
      }
      policy.combined(count: n)
      argumentsCurrent = Policy.keepsCombination
      forwardNext(at: result)
      Slot.destroy(result)
      return true
    }
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

// rx:value-leaf name=ValueCombineLatestObserver args=Value,Value,LatestElements<Value> on next={super.onNext(at: element)} super=wantsNoMoreEvents
// rx:value-leaf name=ValueZipObserver args=Value,Value,QueuedElements<Value> on next={super.onNext(at: element)} super=wantsNoMoreEvents
/// The observer of one source: calls its sink's final methods, so at the leaf's types the
/// call is direct and specialized.
class CombiningObserver<Source, Result, Policy: CombiningPolicy<Source>>: IndexedObserver<Source, Result> {
  /// `parent` at its own type, unretained (`parent` holds it): no retain and release per call.
  let sink: Unmanaged<CombiningSink<Source, Result, Policy>>

  init(parent: CombiningSink<Source, Result, Policy>, index: Int) {
    sink = .passUnretained(parent)
    super.init(parent: parent, tag: index)
  }

  override func on(_ event: Event<Source>) { sink._withUnsafeGuaranteedRef { $0.deliver(tag, event) } }
  override func onNext(at element: UnsafePointer<Source>) { sink._withUnsafeGuaranteedRef { $0.deliverNext(tag, at: element) } }
}
