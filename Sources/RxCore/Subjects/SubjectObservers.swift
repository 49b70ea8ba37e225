import CRxcCore
/// The observers of one subject. Only the subject's drain handler touches it, and handlers
/// never nest, so delivery walks the buffer in place: no lock, no snapshot, and no
/// retain/release per event (the slots hold their references manually).
///
/// A slot is one word (a live subscription costs 8 bytes here): an owned member's observer,
/// which keeps itself alive while listed (`Observer.attachedToSubject`; its slot index lives
/// in the observer, `Observer.subjectSlot`), untagged if it delivers runs
/// (`Observer.deliversRuns`, see `SubjectRun`) and with bit 1 set if not; or the retained
/// `SubjectSubscription` with bit 0 set (it holds the observer and the index), bit 1 if
/// the observer takes `.next` by pointer and bit 2 if it also delivers runs (a C subscriber
/// behind a pass-through sink: the run goes on over such slots). Once allocated, the buffer keeps a sentinel slot
/// (`SubjectRun.end`) after the last one, so that a run needs no count.
@usableFromInline struct SubjectObservers<Element> {
  @usableFromInline var base: UnsafeMutablePointer<UInt>? = nil
  @usableFromInline var count = 0
  @usableFromInline var capacity = 0

  @usableFromInline init() {}

  @inlinable var isEmpty: Bool { count == 0 }

  @inlinable @inline(__always)
  static func observer(_ bits: UInt) -> Unmanaged<Observer<Element>> {
    Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits & ~SubjectRun.subscriptionRunMask).unsafelyUnwrapped)
  }

  @inlinable @inline(__always)
  static func subscription(_ bits: UInt) -> Unmanaged<SubjectSubscription> {
    Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits & ~SubjectRun.subscriptionRunMask).unsafelyUnwrapped)
  }

  /// Calls `body` with the observer of a slot, unless its member is disposed; for a `.next`
  /// (`next`), with the subscription's `nextObserver` (`Observer.nextTarget`).
  @inlinable @inline(__always)
  static func withLive(_ bits: UInt, next: Bool = false, _ body: (Observer<Element>) -> Void) {
    if bits & 1 == 0 {
      observer(bits)._withUnsafeGuaranteedRef(body)
    } else {
      subscription(bits)._withUnsafeGuaranteedRef { s in
        // A listed subscription always holds its observers (`insert` sets them before the
        // slot exists, `release` clears it after the slot is gone): no nil test per event.
        if !s.isDisposed {
          unsafeBitCast((next ? s.nextObserver : s.observer).unsafelyUnwrapped, to: Unmanaged<Observer<Element>>.self)
            ._withUnsafeGuaranteedRef(body)
        }
      }
    }
  }

  @inlinable
  static func setIndex(_ bits: UInt, _ i: Int) {
    if bits & 1 == 0 {
      observer(bits)._withUnsafeGuaranteedRef { $0.subjectSlot = i }
    } else {
      subscription(bits)._withUnsafeGuaranteedRef { $0.index = i }
    }
  }

  /// Releases a slot's references; an owned observer is told it is detached (the last
  /// access to it).
  @inlinable
  static func release(_ bits: UInt) {
    if bits & 1 == 0 {
      observer(bits)._withUnsafeGuaranteedRef { $0.detachedFromSubject() }
    } else {
      let s = subscription(bits)
      s._withUnsafeGuaranteedRef { sub in
        sub.observer?.release()
        sub.observer = nil
      }
      SubjectSubscription.park(s)
    }
  }

  @inlinable
  mutating func insert(_ observer: Observer<Element>, _ member: SubjectMember<Element>) {
    if count &+ 1 >= capacity { grow() }
    let bits: UInt
    switch member {
    case .owned:
      observer.subjectSlot = count
      observer.attachedToSubject()
      // Bit 1: the observer does not deliver runs (asked once, here).
      bits = UInt(bitPattern: Unmanaged.passUnretained(observer).toOpaque()) | (observer.deliversRuns ? 0 : 2)
    case .subscription(let s), .fresh(let s):
      let next = observer.nextTarget
      s._withUnsafeGuaranteedRef {
        $0.index = count
        $0.observer = Unmanaged.passRetained(observer as AnyObject)
        $0.nextObserver = unsafeBitCast(next, to: Unmanaged<AnyObject>.self)
      }
      // The list's own reference to the subscription (a member holds none); a fresh one's
      // count is nobody else's yet, so plain.
      if case .fresh = member { _ = swift_nonatomic_retain(s.toOpaque()) } else { _ = s.retain() }
      // Bit 1: the observer takes `.next` by pointer; bit 2 as well: it also delivers runs
      // (asked once, here; only of a target past a pass-through sink, as observers that
      // deliver runs subscribe as owned members).
      let byPointer = next._withUnsafeGuaranteedRef { $0.takesNextByPointer }
      let runs = byPointer && next.toOpaque() != Unmanaged.passUnretained(observer).toOpaque()
        && next._withUnsafeGuaranteedRef { $0.deliversRuns }
      bits = UInt(bitPattern: s.toOpaque()) | 1 | (byPointer ? 2 : 0) | (runs ? 4 : 0)
    }
    (base! + count).initialize(to: bits)
    count += 1
    base![count] = SubjectRun.end
  }

  @usableFromInline
  mutating func grow() {
    let newCapacity = Swift.max(4, capacity * 2)
    let newBase = UnsafeMutablePointer<UInt>.allocate(capacity: newCapacity)
    if let base {
      newBase.moveInitialize(from: base, count: count &+ 1)  // with the sentinel
      base.deallocate()
    } else {
      newBase.initialize(to: SubjectRun.end)
    }
    base = newBase
    capacity = newCapacity
  }

  /// Removes a member's slot by moving the last slot into it. An owned observer then hears
  /// `detachedFromSubject()` (unless it was not listed any more: it heard it then).
  @inlinable
  mutating func remove(_ member: SubjectMember<Element>) {
    let i: Int
    switch member {
    case .owned(let o): i = o.subjectSlot
    case .subscription(let s), .fresh(let s): i = s._withUnsafeGuaranteedRef { $0.index }
    }
    if i >= 0, let base {
      let bits = base[i]
      count -= 1
      if i != count {
        base[i] = base[count]
        Self.setIndex(base[i], i)
      }
      base[count] = SubjectRun.end
      Self.setIndex(bits, -1)
      Self.release(bits)
    }
  }

  /// Delivers `event` to every observer whose member is not disposed.
  @inlinable @inline(__always)
  func deliver(_ event: Event<Element>) {
    guard let base else { return }
    let n = count
    var i = 0
    while i < n {
      let bits = base[i]
      if bits & 1 == 0 {
        Self.observer(bits)._withUnsafeGuaranteedRef { $0.on(event) }
      } else {
        Self.withLive(bits) { $0.on(event) }
      }
      i += 1
    }
  }

  /// Delivers `element` to every observer whose member is not disposed: to owned members (the
  /// C layer's observers) and to observers that say they override it
  /// (`Observer.takesNextByPointer`) by pointer, `Observer.onNext(at:)`, with no
  /// `Event` built and no copy; to the others as an `Event` built here, in code specialized
  /// for `Element` (the default `onNext(at:)` of a generic subclass is unspecialized: it
  /// would look up `Event<Element>`'s metadata on every call). An owned member that delivers
  /// runs gets the rest of the list too (`Observer.onNext(at:run:)`): one virtual call
  /// serves every observer of its class that follows it.
  @inlinable @inline(__always)
  func deliverNext(_ element: borrowing Element) {
    guard let base else { return }
    let n = count
    // Unprotected: the pointer never escapes the delivery, and a stack protector here costs
    // six instructions per event (`make bench`, W1).
    _withUnprotectedUnsafePointer(to: element) { Self.deliverNext(at: $0, base, n) }
  }

  /// `deliverNext` of the element at `p`, read where it is.
  @inlinable @inline(__always)
  func deliverNext(at p: UnsafePointer<Element>) {
    guard let base else { return }
    Self.deliverNext(at: p, base, count)
  }

  @inlinable @inline(__always)
  static func deliverNext(at p: UnsafePointer<Element>, _ base: UnsafeMutablePointer<UInt>, _ n: Int) {
    if n == 1 { return deliverNext(at: p, to: base[0]) }  // one subscriber: no loop
    deliverNext(at: p, toEach: base, n)
  }

  /// `deliverNext` to any number of slots but one (none too: an event queued before the
  /// last observer left). Out of line: inlined, its loop kept registers busy that the
  /// one-subscriber path then spilled (W1: +2 instructions per event). Walks the slots by
  /// address (the last slot may head a run too: the sentinel ends it), so the element's
  /// address stays in a register (share_10: 24 -> 21 instructions per delivery here).
  @inlinable @inline(never)
  static func deliverNext(at p: UnsafePointer<Element>, toEach base: UnsafeMutablePointer<UInt>, _ n: Int) {
    var slot = base
    let end = base + n
    while slot < end {  // none after the last observer left while an event was queued
      let bits = slot.pointee
      // One dispatch on the three tag bits (see the type comment): a run member serves the
      // slots of its class after it as well.
      switch bits & SubjectRun.subscriptionRunMask {
      case 0:  // an owned member that delivers runs
        slot += observer(bits)._withUnsafeGuaranteedRef { $0.onNext(at: p, run: SubjectRun(slot)) }
      case SubjectRun.subscriptionRunMask:  // a subscription whose next target delivers runs
        slot += subscription(bits)._withUnsafeGuaranteedRef { s in
          if s.isDisposed { return 1 }
          return unsafeBitCast(s.nextObserver.unsafelyUnwrapped, to: Unmanaged<Observer<Element>>.self)
            ._withUnsafeGuaranteedRef { $0.onNext(at: p, run: SubjectRun(slot)) }
        }
      case 3:  // a subscription whose observer takes `.next` by pointer
        nextObserver(bits) { $0.onNext(at: p) }
        slot += 1
      case 1:  // a subscription whose observer takes events
        nextObserver(bits) { $0.on(.next(p.pointee)) }
        slot += 1
      default:  // an owned member that delivers no runs
        observer(bits)._withUnsafeGuaranteedRef { $0.onNext(at: p) }
        slot += 1
      }
    }
  }

  /// Calls `body` with the next target of a subscription slot's, unless it is disposed.
  @inlinable @inline(__always)
  static func nextObserver(_ bits: UInt, _ body: (Observer<Element>) -> Void) {
    subscription(bits)._withUnsafeGuaranteedRef { s in
      if !s.isDisposed {
        unsafeBitCast(s.nextObserver.unsafelyUnwrapped, to: Unmanaged<Observer<Element>>.self)._withUnsafeGuaranteedRef(body)
      }
    }
  }

  /// `deliverNext` to one slot, without runs.
  @inlinable @inline(__always)
  static func deliverNext(at p: UnsafePointer<Element>, to bits: UInt) {
    if bits & 1 == 0 {
      observer(bits)._withUnsafeGuaranteedRef { $0.onNext(at: p) }
    } else if bits & 2 != 0 {
      withLive(bits, next: true) { $0.onNext(at: p) }
    } else {
      withLive(bits, next: true) { $0.on(.next(p.pointee)) }
    }
  }

  /// Empties the list, passing each live observer to `body` (to deliver a stop event or to
  /// tell it it was dropped) before letting go of it.
  @inlinable
  mutating func removeAll(_ body: (Observer<Element>) -> Void) {
    guard let base else { return }
    let n = count
    count = 0
    for i in 0..<n { Self.setIndex(base[i], -1) }
    for i in 0..<n {
      let bits = (base + i).move()
      Self.withLive(bits, body)
      Self.release(bits)
    }
    base[0] = SubjectRun.end
  }

  /// Releases every slot and the buffer (the subject's deinit): no events, but owned
  /// observers still hear `detachedFromSubject()`.
  @usableFromInline
  mutating func deallocate() {
    guard let base else { return }
    for i in 0..<count {
      let bits = (base + i).move()
      Self.setIndex(bits, -1)
      Self.release(bits)
    }
    base.deallocate()
    self.base = nil
    count = 0
    capacity = 0
  }
}
