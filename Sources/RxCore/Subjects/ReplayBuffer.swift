import Glibc

/// A replay subject's buffer: the last `limit` elements in a ring of plain storage, so a late
/// subscriber can be handed the buffer as (at most) two contiguous runs instead of one event
/// at a time (`Observer.onNext(contentsOf:)`). Drain-owned; its owner calls `deallocate()`.
@usableFromInline struct ReplayBuffer<Element> {
  @usableFromInline var base: UnsafeMutablePointer<Element>? = nil
  @usableFromInline var capacity = 0
  @usableFromInline var head = 0
  @usableFromInline var count = 0
  /// Int.max when unbounded.
  @usableFromInline let limit: Int

  @inlinable init(limit: Int) { self.limit = limit }

  @inlinable
  mutating func append(_ element: consuming Element) {
    if count == limit {  // full: the oldest one goes
      Slot.destroy(base! + head)
      head = head + 1 == capacity ? 0 : head + 1
      count -= 1
    }
    if count == capacity { grow() }
    var i = head + count
    if i >= capacity { i -= capacity }
    (base! + i).initialize(to: element)
    count += 1
  }

  /// Storage from malloc, so that growing is a realloc: a big buffer (malloc maps those) then
  /// grows by remapping its pages, with no copy and no second set of page faults. Needs
  /// elements that move by their bits, and malloc's alignment.
  @usableFromInline static var reallocates: Bool {
    _isBitwiseTakable(Element.self) && MemoryLayout<Element>.alignment <= 16
  }

  @usableFromInline
  mutating func grow() {
    let newCapacity = Swift.min(limit, Swift.max(4, capacity * 2))
    // head is 0 here: the ring only wraps once full at `limit`, and then it never grows.
    if Self.reallocates && head == 0 {
      let bytes = newCapacity * MemoryLayout<Element>.stride
      guard let raw = realloc(base.map { UnsafeMutableRawPointer($0) }, bytes) else { fatalError("out of memory") }
      base = raw.bindMemory(to: Element.self, capacity: newCapacity)
      capacity = newCapacity
      return
    }
    let newBase = Self.allocate(newCapacity)
    if let base {
      let first = Swift.min(count, capacity - head)
      (newBase).moveInitialize(from: base + head, count: first)
      (newBase + first).moveInitialize(from: base, count: count - first)
      Self.free(base)
    }
    base = newBase
    capacity = newCapacity
    head = 0
  }

  @usableFromInline static func allocate(_ capacity: Int) -> UnsafeMutablePointer<Element> {
    guard reallocates else { return .allocate(capacity: capacity) }
    guard let raw = malloc(capacity * MemoryLayout<Element>.stride) else { fatalError("out of memory") }
    return raw.bindMemory(to: Element.self, capacity: capacity)
  }

  @usableFromInline static func free(_ p: UnsafeMutablePointer<Element>) {
    if reallocates { Glibc.free(p) } else { p.deallocate() }
  }

  /// Passes the elements, oldest first, as up to two runs; `body` returns false to stop.
  @inlinable
  func forEachRun(_ body: (UnsafeBufferPointer<Element>) -> Bool) {
    guard let base, count > 0 else { return }
    let first = Swift.min(count, capacity - head)
    if !body(UnsafeBufferPointer(start: base + head, count: first)) { return }
    if count > first { _ = body(UnsafeBufferPointer(start: base, count: count - first)) }
  }

  @inlinable
  mutating func removeAll() {
    guard let base else { return }
    let first = Swift.min(count, capacity - head)
    Slot.destroy(base + head, count: first)
    Slot.destroy(base, count: count - first)
    head = 0
    count = 0
  }

  @usableFromInline
  mutating func deallocate() {
    removeAll()
    if let base { Self.free(base) }
    base = nil
    capacity = 0
  }
}
