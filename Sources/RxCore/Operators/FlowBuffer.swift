/// Values waiting for their turn under a `FlowLimit`: at most `capacity` of them, the
/// limit's policy for a value that finds the buffer full, and every drop reported (counted,
/// and passed to `onDropped`). The owner serializes access (a drain); `onDropped` runs on the
/// owner's thread with no lock held. Used where the owner holds values itself (a buffered
/// pausable, rate_limit); observe_on's bounded queue is lock-free and has its own.
struct FlowBuffer<Element> {
  let limit: FlowLimit
  let onDropped: ((Element) -> Void)?
  private var queue = RingBuffer<Element>()

  init(limit: FlowLimit, onDropped: ((Element) -> Void)?) {
    self.limit = limit
    self.onDropped = onDropped
  }

  var isEmpty: Bool { queue.isEmpty }

  /// Queues `element`, or applies the policy when the buffer is full. False when the policy
  /// is `fail` (or `block`, which an owner that cannot block treats as `fail`): `element` is
  /// reported dropped and the overflow counted; the owner ends the stream.
  mutating func offer(_ element: Element) -> Bool {
    if queue.count >= limit.capacity {
      switch limit.policy {
      case .dropNewest:
        reportDropped(element)
        return true
      case .fail, .block:
        reportDropped(element)
        limit.counters.overflows.wrappingAdd(1, ordering: .relaxed)
        return false
      case .dropOldest, .keepLatest:
        if let oldest = queue.popFirst() { reportDropped(oldest) }
      }
    }
    queue.append(element)
    return true
  }

  /// The oldest value, counted as delivered.
  mutating func take() -> Element? {
    guard let element = queue.popFirst() else { return nil }
    limit.counters.delivered.wrappingAdd(1, ordering: .relaxed)
    return element
  }

  /// Drops every queued value, each reported.
  mutating func dropAll() {
    while let held = queue.popFirst() { reportDropped(held) }
  }

  func reportDropped(_ element: Element) {
    limit.counters.dropped.wrappingAdd(1, ordering: .relaxed)
    onDropped?(element)
  }
}
