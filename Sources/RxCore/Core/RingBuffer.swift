/// A growable FIFO ring. Amortized allocation-free: it only allocates when it outgrows its
/// capacity, never per element once warm.
public struct RingBuffer<Element> {
  @usableFromInline var storage: ContiguousArray<Element?> = []
  @usableFromInline var head = 0
  @usableFromInline var _count = 0

  public init() {}

  @inlinable public var count: Int { _count }
  @inlinable public var isEmpty: Bool { _count == 0 }

  @inlinable public mutating func append(_ element: consuming Element) {
    if _count == storage.count { grow() }
    var index = head + _count
    if index >= storage.count { index -= storage.count }
    storage[index] = element
    _count += 1
  }

  /// Appends `element`, dropping the oldest first if `limit` (> 0) are held already: the last
  /// `limit` elements, with no element handed back.
  @inlinable public mutating func append(_ element: consuming Element, keepingLast limit: Int) {
    if _count < limit { return append(element) }
    let oldest = head
    head += 1
    if head == storage.count { head = 0 }
    // Full to capacity: the new element takes the oldest's slot, and the ring turns.
    if _count == storage.count { return storage[oldest] = element }
    var index = oldest + _count
    if index >= storage.count { index -= storage.count }
    storage[index] = element
    storage[oldest] = nil
  }

  @inlinable public mutating func popFirst() -> Element? {
    if _count == 0 { return nil }
    let element = storage[head].take()
    head += 1
    if head == storage.count { head = 0 }
    _count -= 1
    return element
  }

  @inlinable public var first: Element? { _count == 0 ? nil : storage[head] }

  @inlinable public subscript(i: Int) -> Element {
    var index = head + i
    if index >= storage.count { index -= storage.count }
    return storage[index]!
  }

  @inlinable public mutating func removeAll() {
    storage = []
    head = 0
    _count = 0
  }

  @usableFromInline mutating func grow() {
    let newCapacity = Swift.max(8, storage.count * 2)
    var next = ContiguousArray<Element?>(repeating: nil, count: newCapacity)
    for i in 0..<_count {
      var index = head + i
      if index >= storage.count { index -= storage.count }
      next[i] = storage[index].take()
    }
    storage = next
    head = 0
  }
}
