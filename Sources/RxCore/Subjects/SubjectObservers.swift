/// An observer in a subject's list, with its subscription (to skip it once disposed and to
/// fix its index when another slot moves). Both references are retained manually by the list.
@usableFromInline struct SubjectSlot<Element> {
  @usableFromInline let observer: Unmanaged<Observer<Element>>
  @usableFromInline let subscription: Unmanaged<SubjectSubscription>

  @usableFromInline init(_ observer: Unmanaged<Observer<Element>>,
                         _ subscription: Unmanaged<SubjectSubscription>) {
    self.observer = observer
    self.subscription = subscription
  }
}

/// The observers of one subject. Only the subject's drain handler touches it, and handlers
/// never nest, so delivery walks the buffer in place: no lock, no snapshot, and no
/// retain/release per event (the slots hold their references manually).
@usableFromInline struct SubjectObservers<Element> {
  @usableFromInline var base: UnsafeMutablePointer<SubjectSlot<Element>>? = nil
  @usableFromInline var count = 0
  @usableFromInline var capacity = 0

  @usableFromInline init() {}

  @inlinable var isEmpty: Bool { count == 0 }

  @inlinable
  mutating func insert(_ observer: Observer<Element>, _ subscription: SubjectSubscription) {
    if count == capacity { grow() }
    subscription.index = count
    (base! + count).initialize(to: SubjectSlot(.passRetained(observer), .passRetained(subscription)))
    count += 1
  }

  @usableFromInline
  mutating func grow() {
    let newCapacity = Swift.max(4, capacity * 2)
    let newBase = UnsafeMutablePointer<SubjectSlot<Element>>.allocate(capacity: newCapacity)
    if let base {
      newBase.moveInitialize(from: base, count: count)
      base.deallocate()
    }
    base = newBase
    capacity = newCapacity
  }

  /// Removes a subscription's slot by moving the last slot into it.
  @inlinable
  mutating func remove(_ subscription: SubjectSubscription) {
    let i = subscription.index
    guard i >= 0, let base else { return }
    let slot = base[i]
    count -= 1
    if i != count {
      base[i] = base[count]
      base[i].subscription._withUnsafeGuaranteedRef { $0.index = i }
    }
    subscription.index = -1
    slot.observer.release()
    slot.subscription.release()
  }

  /// Delivers `event` to every observer whose subscription is not disposed.
  @inlinable
  func deliver(_ event: Event<Element>) {
    guard let base else { return }
    let n = count
    var i = 0
    while i < n {
      let slot = base[i]
      if !slot.subscription._withUnsafeGuaranteedRef({ $0.isDisposed }) {
        slot.observer._withUnsafeGuaranteedRef { $0.on(event) }
      }
      i += 1
    }
  }

  /// Empties the list, passing each live observer to `body` (to deliver a stop event or to
  /// tell it it was dropped) before letting go of it.
  @inlinable
  mutating func removeAll(_ body: (Observer<Element>) -> Void) {
    guard let base else { return }
    let n = count
    count = 0
    for i in 0..<n {
      base[i].subscription._withUnsafeGuaranteedRef { $0.index = -1 }
    }
    for i in 0..<n {
      let slot = (base + i).move()
      if !slot.subscription._withUnsafeGuaranteedRef({ $0.isDisposed }) {
        slot.observer._withUnsafeGuaranteedRef { body($0) }
      }
      slot.observer.release()
      slot.subscription.release()
    }
  }

  /// Releases every slot and the buffer without calling anyone (the subject's deinit).
  @usableFromInline
  mutating func deallocate() {
    guard let base else { return }
    for i in 0..<count {
      let slot = (base + i).move()
      slot.subscription._withUnsafeGuaranteedRef { $0.index = -1 }
      slot.observer.release()
      slot.subscription.release()
    }
    base.deallocate()
    self.base = nil
    count = 0
    capacity = 0
  }
}
