/// A min-heap of items by due time; items due at the same time come out in insertion
/// order (the sequence number breaks ties), as VirtualTimeScheduler requires.
public struct TimerQueue<Item> {
  @usableFromInline var heap: ContiguousArray<(due: Int64, seq: UInt64, item: Item)> = []
  @usableFromInline var nextSeq: UInt64 = 0

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
    if !heap.isEmpty { siftDown(0) }
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

  public mutating func removeAll() { heap.removeAll() }

  /// Drops the items `shouldRemove` picks, in O(n); the rest keep their order.
  public mutating func removeAll(where shouldRemove: (Item) -> Bool) {
    heap.removeAll { shouldRemove($0.item) }
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
