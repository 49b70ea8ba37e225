/// A min-heap of items by due time; items due at the same time come out in insertion
/// order (the sequence number breaks ties), as VirtualTimeScheduler requires.
public struct TimerQueue<Item> {
  @usableFromInline var heap: ContiguousArray<(due: Int64, seq: UInt64, item: Item)> = []
  @usableFromInline var nextSeq: UInt64 = 0
  /// Disposed items still in the heap, as their owner reports them (`noteDisposed`,
  /// `droppedDisposed`); a concurrent dispose may make it off by a few until the next sweep.
  @usableFromInline var disposed = 0
  /// Storage kept when the heap shrinks (entries): more goes back to the allocator.
  @inlinable static var keptCapacity: Int { 256 }

  public init() {}

  public var isEmpty: Bool { heap.isEmpty }
  public var count: Int { heap.count }
  public var first: (due: Int64, item: Item)? { heap.first.map { ($0.due, $0.item) } }
  /// The first item's due time: what a runner asks before it pops (reading `first` copies
  /// the item, a retain and release of a class item).
  public var firstDue: Int64? { heap.isEmpty ? nil : heap[0].due }

  public mutating func insert(_ item: consuming Item, due: Int64) {
    heap.append((due, nextSeq, consume item))
    nextSeq &+= 1
    var i = heap.count - 1
    while i > 0 {
      let parent = (i - 1) / 2
      if !less(i, parent) { break }
      heap.swapAt(i, parent)
      i = parent
    }
  }

  public mutating func popFirst() -> (due: Int64, item: Item)? {
    guard !heap.isEmpty else { return nil }
    if heap.count > 1 { heap.swapAt(0, heap.count - 1) }  // one timer pending: the usual case
    let top = heap.removeLast()
    if !heap.isEmpty {
      siftDown(0)
    } else if heap.capacity > Self.keptCapacity {
      heap = []  // a burst of timers is over: its storage goes
    }
    return (top.due, top.item)
  }

  @inline(__always) mutating func siftDown(_ start: Int) {
    var i = start
    while true {
      let l = 2 * i + 1, r = l + 1
      var m = i
      if l < heap.count && less(l, m) { m = l }
      if r < heap.count && less(r, m) { m = r }
      if m == i { break }
      heap.swapAt(i, m)
      i = m
    }
  }

  public mutating func removeAll() {
    heap.removeAll()
    disposed = 0
  }

  /// An item in the heap was disposed: once disposed items are half of the heap, a sweep
  /// drops them (`isDisposed` tells which), so a mass dispose frees them as it goes, at
  /// O(1) amortized per dispose, and the heap holds at most twice its live items.
  public mutating func noteDisposed(_ isDisposed: (Item) -> Bool) {
    disposed += 1
    if disposed * 2 > heap.count { removeAll(where: isDisposed) }
  }

  /// The owner popped an item that was disposed.
  public mutating func droppedDisposed() { if disposed > 0 { disposed -= 1 } }

  /// Drops the items `shouldRemove` picks, in O(n); the rest keep their order.
  public mutating func removeAll(where shouldRemove: (Item) -> Bool) {
    heap.removeAll { shouldRemove($0.item) }
    disposed = 0
    if heap.capacity > Self.keptCapacity && heap.capacity > 4 * heap.count {
      var kept = ContiguousArray<(due: Int64, seq: UInt64, item: Item)>()  // what was swept
      kept.reserveCapacity(heap.count)                                      // leaves the storage too
      kept.append(contentsOf: heap)
      heap = kept
    }
    var i = heap.count / 2
    while i > 0 {
      i -= 1
      siftDown(i)
    }
  }

  @inline(__always) func less(_ a: Int, _ b: Int) -> Bool {
    heap[a].due < heap[b].due || (heap[a].due == heap[b].due && heap[a].seq < heap[b].seq)
  }
}
