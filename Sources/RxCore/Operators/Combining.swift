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

/// Which elements make a combination: the per-source storage of one subscription, in plain
/// memory (freed by `release`), touched only by the sink's draining thread.
protocol CombiningPolicy<Source> {
  associatedtype Source
  init(count: Int)
  func release(count: Int)
  /// With no sources: whether the selector's result over none is emitted before completing.
  static var combinesNone: Bool { get }
  /// Whether a combination stays at `combination` after the selector's call, to be changed
  /// in one slot by the next element (then the selector refreshes only that argument).
  static var keepsCombination: Bool { get }
  /// Where the selector reads a combination.
  var combination: UnsafeMutablePointer<Source> { get }
  /// Takes an element of source `index`: true when a combination stands at `combination`.
  mutating func take(_ index: Int, at element: UnsafePointer<Source>, count: Int) -> Bool
  /// After the selector's call over `combination` (it may have thrown).
  mutating func combined(count: Int)
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
  static var keepsCombination: Bool { true }

  @inline(__always)
  mutating func take(_ index: Int, at element: UnsafePointer<Source>, count: Int) -> Bool {
    // Once every source emitted (the steady state), every slot is initialized.
    if numberOfValues == count {
      Slot.assign(combination + index, copying: element)
      return true
    }
    if !emitted[index] {
      Slot.initialize(combination + index, copying: element)
      emitted[index] = true
      numberOfValues += 1
    } else {
      Slot.assign(combination + index, copying: element)
    }
    return numberOfValues == count
  }

  /// The latest elements stay for the next combination.
  @inline(__always)
  mutating func combined(count: Int) {}
}

/// zip: each source's waiting elements; the n-th elements of all sources make a combination,
/// moved out of the queues for the selector's call (and uninitialized between calls).
struct QueuedElements<Source>: CombiningPolicy {
  let queues: UnsafeMutablePointer<ElementQueue<Source>>
  let combination: UnsafeMutablePointer<Source>
  var numberOfNonEmpty = 0
  /// The slot of `combination` that holds the caller's element lent (see `take`), or -1.
  var lent = -1

  init(count: Int) {
    queues = .allocate(capacity: count)
    queues.initialize(repeating: ElementQueue(), count: count)
    combination = .allocate(capacity: count)
  }

  func release(count: Int) {
    for i in 0..<count { queues[i].release() }
    queues.deallocate()
    combination.deallocate()
  }

  static var combinesNone: Bool { false }
  static var keepsCombination: Bool { false }

  @inline(__always)
  mutating func take(_ index: Int, at element: UnsafePointer<Source>, count n: Int) -> Bool {
    if queues[index].isEmpty && numberOfNonEmpty == n - 1 {
      // Every other source has one waiting: this element completes a combination as it
      // is, without a turn through its queue, and lent for the call (the caller's, valid
      // until `combined`): neither retained nor released.
      Slot.lend(combination + index, element)
      lent = index
      takeFirsts(except: index, count: n)
      return true
    }
    queues[index].append(copying: element)
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
      queues[i].moveFirst(to: combination + i)
      if !queues[i].isEmpty { numberOfNonEmpty += 1 }
    }
  }

  /// One by one: a run's deinitialize is a runtime call (swift_arrayDestroy) per event. The
  /// lent element is not destroyed: it was never copied.
  @inline(__always)
  mutating func combined(count: Int) {
    var i = 0
    while i < count {
      if i != lent { Slot.destroy(combination + i) }
      i += 1
    }
    lent = -1
  }
}

/// One zip source's waiting elements: a ring in plain memory (a power-of-two capacity, so an
/// index wraps with a mask), moved in and out bitwise. A `RingBuffer` in its place checked its
/// array for uniqueness and copied an optional in and out per element.
struct ElementQueue<Source> {
  private var base: UnsafeMutablePointer<Source>? = nil
  private var capacity = 0
  private var head = 0
  private(set) var count = 0

  var isEmpty: Bool { count == 0 }

  @inline(__always)
  mutating func append(copying element: UnsafePointer<Source>) {
    if count == capacity { grow() }
    Slot.initialize(base.unsafelyUnwrapped + ((head &+ count) & (capacity &- 1)), copying: element)
    count &+= 1
  }

  /// Moves the first element (there is one) into the uninitialized `slot`.
  @inline(__always)
  mutating func moveFirst(to slot: UnsafeMutablePointer<Source>) {
    slot.moveInitialize(from: base.unsafelyUnwrapped + head, count: 1)
    head = (head &+ 1) & (capacity &- 1)
    count &-= 1
  }

  @inline(never)
  private mutating func grow() {
    let larger = Swift.max(4, capacity * 2)
    let storage = UnsafeMutablePointer<Source>.allocate(capacity: larger)
    if let base {
      let tail = Swift.min(count, capacity - head)
      storage.moveInitialize(from: base + head, count: tail)
      (storage + tail).moveInitialize(from: base, count: count - tail)
      base.deallocate()
    }
    (base, capacity, head) = (storage, larger, 0)
  }

  func release() {
    guard let base else { return }
    for k in 0..<count { (base + ((head + k) & (capacity - 1))).deinitialize(count: 1) }
    base.deallocate()
  }
}

/// Element copies into and out of the combining operators' slots, with `Value`'s plain cases
/// done by their bits (see `Value`'s layout): the generic forms are outlined calls per
/// element (a copy, a destroy, each a jump table).
enum Slot {
  /// The element at `p` is a `Value` that holds no reference.
  @inline(__always)
  static func isPlain<T>(_ p: UnsafePointer<T>) -> Bool {
    T.self == Value.self && MemoryLayout<Value>.size == 9
      && UnsafeRawPointer(p).load(fromByteOffset: 8, as: UInt8.self) != Value.boxedTag
  }

  @inline(__always)
  private static func copyBits<T>(_ slot: UnsafeMutablePointer<T>, _ element: UnsafePointer<T>) {
    let to = UnsafeMutableRawPointer(slot), from = UnsafeRawPointer(element)
    to.storeBytes(of: from.load(as: UInt64.self), as: UInt64.self)
    to.storeBytes(of: from.load(fromByteOffset: 8, as: UInt8.self), toByteOffset: 8, as: UInt8.self)
  }

  /// Initializes the uninitialized `slot` with a copy of the element at `element`.
  @inline(__always)
  static func initialize<T>(_ slot: UnsafeMutablePointer<T>, copying element: UnsafePointer<T>) {
    if isPlain(element) { return copyBits(slot, element) }
    slot.initialize(to: element.pointee)
  }

  /// Fills the uninitialized `slot` with the bits of the element at `element`, not copied
  /// (no retain): the caller's, lent while it stays valid; never destroyed from `slot`.
  @inline(__always)
  static func lend<T>(_ slot: UnsafeMutablePointer<T>, _ element: UnsafePointer<T>) {
    if T.self == Value.self && MemoryLayout<Value>.size == 9 { return copyBits(slot, element) }
    UnsafeMutableRawPointer(slot).copyMemory(from: element, byteCount: MemoryLayout<T>.size)
  }

  /// Replaces the element in `slot` with a copy of the one at `element`.
  @inline(__always)
  static func assign<T>(_ slot: UnsafeMutablePointer<T>, copying element: UnsafePointer<T>) {
    if isPlain(element) && isPlain(UnsafePointer(slot)) { return copyBits(slot, element) }
    slot.pointee = element.pointee
  }

  /// Deinitializes `slot`.
  @inline(__always)
  static func destroy<T>(_ slot: UnsafeMutablePointer<T>) {
    if isPlain(UnsafePointer(slot)) { return }
    slot.deinitialize(count: 1)
  }
}

// rx:value-leaf name=ValueCombineLatestSink args=Value,Value,LatestElements<Value> copy=makeObserver map=IndexedObserver:ValueCombineLatestObserver super=submit,submitNext
// rx:value-leaf name=ValueZipSink args=Value,Value,QueuedElements<Value> copy=makeObserver map=IndexedObserver:ValueZipObserver super=submit,submitNext
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

  override func submit(_ index: Int, _ event: Event<Source>) {
    // Inline when the drain is free: the event is handled where it is, not copied into an item.
    drain.submit((index, event), inline: { handle(index, event) }) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item.0, item.1) } }
  }

  /// The drain's `submit` spelled out: its `inline` closure, this big, stayed a call of its own.
  override func submitNext(_ index: Int, at element: UnsafePointer<Source>) {
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

// rx:hand-leaf: calls its sink's final leaf directly (one call per element, not a vtable hop).
/// The observer of one source of a `Value` combine_latest.
final class ValueCombineLatestObserver: IndexedObserver<Value, Value> {
  /// `parent` at its leaf type, unretained (`parent` holds it): no retain and release per call.
  let sink: Unmanaged<ValueCombineLatestSink>
  init(parent: ValueCombineLatestSink, index: Int) {
    sink = .passUnretained(parent)
    super.init(parent: parent, index: index)
  }
  override func on(_ event: Event<Value>) { sink._withUnsafeGuaranteedRef { $0.submit(index, event) } }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { sink._withUnsafeGuaranteedRef { $0.submitNext(index, at: element) } }
  override var wantsNoMoreEvents: Bool { super.wantsNoMoreEvents }
}

// rx:hand-leaf: calls its sink's final leaf directly (one call per element, not a vtable hop).
/// The observer of one source of a `Value` zip.
final class ValueZipObserver: IndexedObserver<Value, Value> {
  /// `parent` at its leaf type, unretained (`parent` holds it): no retain and release per call.
  let sink: Unmanaged<ValueZipSink>
  init(parent: ValueZipSink, index: Int) {
    sink = .passUnretained(parent)
    super.init(parent: parent, index: index)
  }
  override func on(_ event: Event<Value>) { sink._withUnsafeGuaranteedRef { $0.submit(index, event) } }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { sink._withUnsafeGuaranteedRef { $0.submitNext(index, at: element) } }
  override var wantsNoMoreEvents: Bool { super.wantsNoMoreEvents }
}
