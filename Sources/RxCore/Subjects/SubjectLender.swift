import CRxcCore
import Synchronization

/// Lends a subject to the subscription tokens made on one thread, its owner, so that a
/// subscribe + dispose pays no reference count on the subject (two locked instructions).
///
/// A token that detaches from its subject still touches the subject's drain after it has
/// let go of it; the subject must outlive that, and anything that is not a reference of the
/// token's own must be kept up in some other way. Here an *anchor* (one reference that
/// `SubjectObservable` takes on itself, and so on the subject) stays until every loan has
/// been given back and the subject handle is gone. The owner counts its loans with plain
/// stores (`lent`); other threads give loans back with an atomic add (`returned`); the one
/// that closes the lender (the subject handle's end) looks at the owner's count after one
/// `AsymmetricFence.heavySide()`, as the drains' biased mode does, unless it is the owner itself:
/// the owner either made its change visible before the barrier, or sees the close after it
/// (it marks itself inside, `ownerIn`, so that the closer knows when the count is in flux
/// and leaves taking it to the owner). Only the owner lends; other threads' tokens hold a
/// reference of their own.
@_spi(RxC) public struct SubjectLender: ~Copyable {
  @inlinable static var nobody: UInt { 0 }
  @inlinable static var shut: UInt { 1 }  // closed before anyone borrowed
  @inlinable static var open: Int { 0 }
  @inlinable static var closed: Int { 1 }  // no more loans; `lentAtClose` not known yet
  @inlinable static var frozen: Int { 2 }  // `lentAtClose` is final

  /// The owner's `rxc_thread_self()`, `nobody` yet, or `shut`.
  @usableFromInline let owner = Atomic<UInt>(0)
  /// True while the owner changes `lent` (plain stores; see the type comment).
  @usableFromInline let ownerIn = Atomic<Bool>(false)
  /// Loans made minus loans given back by the owner before it saw the close. Owner-written.
  @usableFromInline let lent = Atomic<Int>(0)
  /// Loans given back by other threads, and by the owner after it saw the close.
  @usableFromInline let returned = Atomic<Int>(0)
  @usableFromInline let phase = Atomic<Int>(0)
  @usableFromInline let lentAtClose = Atomic<Int>(0)
  /// Claimed by whoever releases the anchor.
  @usableFromInline let settled = Atomic<Bool>(false)

  public init() {}

  /// A loan for a token made on this thread: true if this thread is (or now becomes) the
  /// owner and the lender is open. `anchor` is retained once, by the first loan; the caller
  /// holds a reference of its own to it.
  @inlinable @inline(__always)
  public func lend(anchor: AnyObject) -> Bool {
    let me = rxc_thread_self()
    let o = owner.load(ordering: .relaxed)
    if o != me && (o != Self.nobody || !claim(me, anchor)) { return false }
    ownerIn.store(true, ordering: .relaxed)
    AsymmetricFence.lightSide()
    guard phase.load(ordering: .acquiring) == Self.open else { return refusedAfterClose(anchor) }
    lent.store(lent.load(ordering: .relaxed) &+ 1, ordering: .releasing)
    AsymmetricFence.lightSide()
    ownerIn.store(false, ordering: .releasing)
    AsymmetricFence.lightSide()
    if phase.load(ordering: .acquiring) != Self.open { freeze() }  // this loan stands
    return true
  }

  /// Ends a loan: its token touches the subject no more. True when the caller must now
  /// release the anchor (the last loan after the close); that may free the subject.
  @inlinable @inline(__always)
  public func giveBack() -> Bool {
    if owner.load(ordering: .relaxed) == rxc_thread_self() {
      ownerIn.store(true, ordering: .relaxed)
      AsymmetricFence.lightSide()
      if phase.load(ordering: .acquiring) == Self.open {
        lent.store(lent.load(ordering: .relaxed) &- 1, ordering: .releasing)
        AsymmetricFence.lightSide()
        ownerIn.store(false, ordering: .releasing)
        AsymmetricFence.lightSide()
        return phase.load(ordering: .acquiring) != Self.open && ownerSawClose()
      }
      ownerLeftClosed()
    }
    return givenBackAtomically()
  }

  /// The owner found the lender closed on its way in: lends nothing.
  @inline(never) @usableFromInline
  func refusedAfterClose(_ anchor: AnyObject) -> Bool {
    ownerLeftClosed()
    if settle() { Unmanaged.passUnretained(anchor).release() }  // not the caller's reference
    return false
  }

  /// The owner found the lender closed on its way in: it leaves its count as it is, which
  /// the closer may have left it to take.
  @inline(never) @usableFromInline
  func ownerLeftClosed() {
    ownerIn.store(false, ordering: .releasing)
    freeze()
  }

  @inline(never) @usableFromInline
  func givenBackAtomically() -> Bool {
    returned.wrappingAdd(1, ordering: .sequentiallyConsistent)
    // Before the freeze, the one who freezes sees this add (both sides sequentially consistent).
    return phase.load(ordering: .sequentiallyConsistent) == Self.frozen && settle()
  }

  /// The subject handle is gone: no more loans. True when the caller must release the anchor.
  public func close() -> Bool {
    guard phase.exchange(Self.closed, ordering: .sequentiallyConsistent) == Self.open else { return false }
    if owner.compareExchange(expected: Self.nobody, desired: Self.shut, ordering: .sequentiallyConsistent).exchanged {
      return false  // nobody borrowed, and nobody will
    }
    if owner.load(ordering: .relaxed) != rxc_thread_self() {
      AsymmetricFence.heavySide()
      if ownerIn.load(ordering: .acquiring) { return false }  // it takes the count when it leaves
    }
    return ownerSawClose()
  }

  @inline(never) @usableFromInline
  func claim(_ me: UInt, _ anchor: AnyObject) -> Bool {
    // Without a real process barrier the closer could not read the owner's count.
    guard AsymmetricFence.heavySideExists else { return false }
    let a = Unmanaged.passUnretained(anchor).retain()  // before anyone can see a loan
    if owner.compareExchange(expected: Self.nobody, desired: me, ordering: .sequentiallyConsistent).exchanged {
      return true
    }
    a.release()  // the caller's reference keeps it
    return false
  }

  /// Once closed: the owner's count is final (the closer found the owner outside, or the
  /// owner saw the close). Both may come here; they read the same count.
  @inline(never) @usableFromInline
  func ownerSawClose() -> Bool {
    freeze()
    return settle()
  }

  @inline(never) @usableFromInline
  func freeze() {
    if phase.load(ordering: .acquiring) == Self.frozen { return }
    lentAtClose.store(lent.load(ordering: .acquiring), ordering: .relaxed)
    _ = phase.compareExchange(expected: Self.closed, desired: Self.frozen, ordering: .sequentiallyConsistent)
  }

  @usableFromInline func settle() -> Bool {
    guard phase.load(ordering: .sequentiallyConsistent) == Self.frozen,
      lentAtClose.load(ordering: .relaxed) == returned.load(ordering: .sequentiallyConsistent)
    else { return false }
    return !settled.exchange(true, ordering: .acquiringAndReleasing)
  }
}
