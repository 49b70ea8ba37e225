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
    for i in 0..<count where emitted[i] { Slot.destroy(combination + i) }
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
    for k in 0..<count { Slot.destroy(base + ((head + k) & (capacity - 1))) }
    base.deallocate()
  }
}
