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
      (base! + head).deinitialize(count: 1)
      head = head + 1 == capacity ? 0 : head + 1
      count -= 1
    }
    if count == capacity { grow() }
    var i = head + count
    if i >= capacity { i -= capacity }
    (base! + i).initialize(to: element)
    count += 1
  }

  @usableFromInline
  mutating func grow() {
    let newCapacity = Swift.min(limit, Swift.max(4, capacity * 2))
    let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
    if let base {
      let first = Swift.min(count, capacity - head)
      (newBase).moveInitialize(from: base + head, count: first)
      (newBase + first).moveInitialize(from: base, count: count - first)
      base.deallocate()
    }
    base = newBase
    capacity = newCapacity
    head = 0
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
    (base + head).deinitialize(count: first)
    base.deinitialize(count: count - first)
    head = 0
    count = 0
  }

  @usableFromInline
  mutating func deallocate() {
    removeAll()
    base?.deallocate()
    base = nil
    capacity = 0
  }
}
