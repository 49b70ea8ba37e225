// Over 400 lines: one state machine (the biased and contended paths, the queue, the hand-off
// between threads); its invariants hold across all of it, so it stays in one file.
import CRxcCore
import Glibc
import Synchronization

/// (Over 400 lines on purpose: the three ways in below share the drain's private state and
/// prove each other's safety; read in one place, the protocol can be checked.)
///
/// Serializes work items from any number of threads, including re-entrant submissions from
/// inside a handler, without ever running a handler under a lock.
///
/// A thread that finds the drain free takes it, handles its own item at once, then whatever
/// was queued meanwhile, and lets go. Everyone else appends to a locked queue and returns;
/// their item runs after the current one, on the holder's thread. A re-entrant submission
/// (the holder's own thread, from inside a handler) is queued the same way, never run
/// recursively and never dropped.
///
/// Three ways in, cheapest first:
/// - **Biased.** A drain that one thread has taken `biasStreak` times in a row, with nobody
///   else around, is biased to that thread (`bias`). The owner then takes it with plain stores
///   (its identity into `ownerIn`, then a re-check of `bias`) and no atomic read-modify-write
///   at all. Any other thread that wants it revokes the bias for good: it marks `bias`
///   revoking, runs `AsymmetricFence.heavySide()` once (every in-flight owner store becomes visible,
///   or the owner's re-check sees the revocation), then looks at `ownerIn`. An owner found
///   inside keeps the drain until it lets go; it sees the revocation then and handles what
///   was queued for it, fenced. Nobody ever waits for an owner: its handler may be waiting
///   for them.
/// - **Unshared.** Otherwise a CAS on `held` takes it and a plain release store lets it go.
///   That is safe while only one thread at a time ever uses the drain (re-entrancy included,
///   which the holder sees in program order).
/// - **Shared.** The lost wake-up: a holder that stores "free" and then looks at the queue
///   may, on a real CPU, read the queue before its store is visible, while a submitter reads
///   "held" and leaves its item to it. Both sides need a full fence between their store and
///   their load. The first submission from a foreign thread that finds the drain held makes it
///   `shared` for good: it runs `AsymmetricFence.heavySide()` once, which makes every in-flight
///   holder's "free" store visible or its next load see `shared`; from then on holders fence
///   when they let go, as the usual protocol does.
///
/// A CAS holder is a holder only if it then finds `ownerIn` clear (`tryEnter`); otherwise it
/// backs off and leaves its work to the owner.
///
/// Fairness: a thread that came with one item must not be kept draining for as long as other
/// threads keep submitting. After `fairShare` items the holder offers its role (`handoff`);
/// the next foreign submitter takes it over and drains instead, and the first one returns.
/// With no taker within a short spin it withdraws the offer and goes on.
///
/// Backlog: a foreign submitter that finds `backlogLimit` items queued waits (yielding) for
/// the holder to catch up before it returns, 2 ms at most (`waitForBacklog`).
@usableFromInline final class Drain<Item> {
  /// 1 while a thread holds the drain by CAS, else 0.
  @usableFromInline let held = Atomic<Int>(0)
  /// The holder's `rxc_thread_self()` (either way in), 0 when free or being handed over:
  /// tells a re-entrant submission from a foreign one. Cleared before the drain is let go,
  /// so a thread that reads its own identity here is the holder.
  @usableFromInline let holder = Atomic<UInt>(0)
  /// The thread the drain is biased to, or `unbiased`, `revoking`, `revoked` (thread
  /// identities are addresses, never that small).
  @usableFromInline let bias: Atomic<UInt>
  /// The owner's identity while it holds the drain by its bias, else 0. Only the owner
  /// writes it.
  @usableFromInline let ownerIn = Atomic<UInt>(0)
  /// The thread that took the drain by CAS last, and how many times in a row (kept by the
  /// holder; they decide when to bias).
  @usableFromInline var lastEntrant: UInt = 0
  @usableFromInline var streak = 0
  /// 0: only one thread at a time has used the drain. 1: a foreign submitter is switching it
  /// (its barrier is under way). 2: shared for good (see the type comment).
  @usableFromInline let mode: Atomic<Int>
  /// Guards `queue`, held only for an append or a buffer swap (see `SpinLock`).
  @usableFromInline let queueLock = SpinLock()
  @usableFromInline var queue = RingBuffer<Item>()
  /// `queue.count`, written under `queueLock`, read without it by the holder.
  @usableFromInline let queued = Atomic<Int>(0)
  /// An owner kept alive until the drain is let go (see `keepAliveWhileDraining`).
  @usableFromInline let parked = Atomic<UnsafeMutableRawPointer?>(nil)
  /// The holder's spare buffer (only the holder touches it).
  @usableFromInline var batch = RingBuffer<Item>()
  /// 0: no offer; 1: the holder offers its role; 2: a submitter took it and waits for the
  /// holder to let go (it stores 0 as its last access).
  @usableFromInline let handoff = Atomic<Int>(0)
  @usableFromInline static var fairShare: Int { 256 }
  @usableFromInline static var unbiased: UInt { 0 }
  @usableFromInline static var revoked: UInt { 1 }
  @usableFromInline static var revoking: UInt { 2 }
  /// CAS entries in a row by one thread before the drain is biased to it: a drain that two
  /// threads share briefly (a subscription made on one thread, fed on another) should not
  /// pay a revocation.
  @usableFromInline static var biasStreak: Int { 64 }

  public init() {
    // Without a real process barrier the asymmetric protocols cannot be made safe.
    let barrier = AsymmetricFence.heavySideExists
    mode = Atomic(barrier ? 0 : 2)
    bias = Atomic(barrier ? Self.unbiased : Self.revoked)
  }

  /// True while some thread holds the drain (for diagnostics and tests).
  public var isDraining: Bool {
    held.load(ordering: .acquiring) != 0 || ownerIn.load(ordering: .acquiring) != 0
  }

  /// True when no thread holds the drain and nothing waits in its queue. Then drain-owned
  /// state published before its holder let go (read acquiring, after this) is as every
  /// operation that happened before the call left it: an item is counted in `queued` until a
  /// holder, whose identity is in `holder` first, takes it, and `holder` is cleared (a release)
  /// only after that holder is done with it. The caller's own thread holding it reads false.
  @inlinable @inline(__always)
  public var isQuiet: Bool {
    queued.load(ordering: .acquiring) == 0 && holder.load(ordering: .acquiring) == 0
  }

  /// True once the drain is biased to a thread (for tests).
  public var isBiased: Bool { bias.load(ordering: .acquiring) > Self.revoking }

  @inlinable @inline(__always)
  public func submit(_ item: Item, _ handle: (Item) -> Void) {
    if enter(handle) {
      handle(item)
      exit(handle)
    } else {
      submitQueued(item, handle)
    }
  }

  /// `submit` for callers that can do the work without building an `Item`: when the drain
  /// is free `inline` runs instead, and `item` is never made.
  @inlinable @inline(__always)
  public func submit(_ item: @autoclosure () -> Item, inline: () -> Void, _ handle: (Item) -> Void) {
    if enter(handle) {
      inline()
      exit(handle)
    } else {
      submitQueued(item(), handle)
    }
  }

  /// Takes the drain if it is free, after handling what was queued before: a caller that
  /// gets true handles its own work inline, without building an `Item`, and must then call
  /// `exit`. (Items are queued while another thread holds the drain; one that lets go may
  /// not have seen the last of them yet, and they must not be overtaken.)
  @inlinable @inline(__always)
  public func enter(_ handle: (Item) -> Void) -> Bool {
    let me = rxc_thread_self()
    if bias.load(ordering: .relaxed) == me {
      if holder.load(ordering: .relaxed) == me { return false }  // re-entrant
      ownerIn.store(me, ordering: .relaxed)
      AsymmetricFence.lightSide()  // the CPU may still reorder: that is what the revoker's barrier is for
      if bias.load(ordering: .relaxed) == me {
        holder.store(me, ordering: .relaxed)
        if queued.load(ordering: .relaxed) != 0 { catchUp(handle) }
        return true
      }
      ownerOut()
    }
    guard tryEnter() else { return false }
    if queued.load(ordering: .relaxed) != 0 { catchUp(handle) }
    return true
  }

  /// Handles the items queued before this holder took the drain.
  @usableFromInline @inline(never)
  func catchUp(_ handle: (Item) -> Void) {
    queueLock.lock()
    swap(&queue, &batch)
    queued.store(0, ordering: .releasing)  // see `isQuiet`
    queueLock.unlock()
    while let item = batch.popFirst() { handle(item) }
  }

  /// Takes the drain by CAS if it is free; the caller then drains the queue.
  @inlinable @inline(__always)
  func tryEnter() -> Bool {
    guard held.compareExchange(expected: 0, desired: 1, ordering: .sequentiallyConsistent).exchanged
    else { return false }
    let me = rxc_thread_self()
    let b = bias.load(ordering: .relaxed)
    if b == Self.unbiased {
      holder.store(me, ordering: .relaxed)
      countEntry(me)
      return true
    }
    return enteredWithBias(b, me)
  }

  /// Biases the drain to `me` once it has taken it `biasStreak` times in a row (the holder
  /// calls this; the store takes effect from its next entry).
  @inlinable @inline(__always)
  func countEntry(_ me: UInt) {
    if lastEntrant != me {
      lastEntrant = me
      streak = 1
    } else {
      streak &+= 1
      if streak == Self.biasStreak { biasTo(me) }
    }
  }

  @usableFromInline @inline(never)
  func biasTo(_ me: UInt) {
    // Not once a foreign submitter has met the holder: the next one would revoke it.
    if mode.load(ordering: .relaxed) == 0 { bias.store(me, ordering: .releasing) }
  }

  /// `tryEnter` after the CAS, when the drain is or was biased: revoke a bias still in
  /// place, then hold only if the owner is not inside.
  @usableFromInline @inline(never)
  func enteredWithBias(_ b: UInt, _ me: UInt) -> Bool {
    // `b == me`: this thread took the bias while it held by CAS and still does (its drain
    // loop). Nobody else can be inside.
    if b != Self.revoked && b != me { revokeBias() }
    if b != me && ownerIn.load(ordering: .sequentiallyConsistent) != 0 { return backOff() }
    holder.store(me, ordering: .relaxed)
    return true
  }

  /// Ends biasing for good (see the type comment). Returns once `bias` reads `revoked`.
  @usableFromInline @inline(never)
  func revokeBias() {
    var spins = 0
    while true {
      let b = bias.load(ordering: .acquiring)
      if b == Self.revoked { return }
      if b == Self.revoking {  // another thread's barrier is under way: it takes microseconds
        spins += 1
        if spins > 64 { sched_yield() }
        continue
      }
      guard bias.compareExchange(expected: b, desired: Self.revoking, ordering: .sequentiallyConsistent).exchanged
      else { continue }
      if b != Self.unbiased { AsymmetricFence.heavySide() }
      bias.store(Self.revoked, ordering: .sequentiallyConsistent)
      return
    }
  }

  /// A CAS holder met the owner inside (a revocation found it there, or the owner is between
  /// its store and its re-check). Let go, fenced: the owner looks at the queue when it lets
  /// go, so whatever was left to this holder is covered. Retries if the owner left meanwhile
  /// (it does not come back: the bias is revoked).
  @usableFromInline @inline(never)
  func backOff() -> Bool {
    held.store(0, ordering: .releasing)
    atomicMemoryFence(ordering: .sequentiallyConsistent)
    if ownerIn.load(ordering: .sequentiallyConsistent) == 0 { return tryEnter() }
    return false
  }

  /// The owner clears `ownerIn` after finding its bias revoked on the way in.
  @usableFromInline @inline(never)
  func ownerOut() {
    ownerIn.store(0, ordering: .sequentiallyConsistent)
  }

  /// Leaves after `enter`: handles what was queued meanwhile, then lets go (plain stores when
  /// nothing was queued and the drain is not shared).
  @inlinable @inline(__always)
  public func exit(_ handle: (Item) -> Void) {
    if ownerIn.load(ordering: .relaxed) == rxc_thread_self() {
      if queued.load(ordering: .relaxed) != 0 { return biasedDrain(handle) }
      letGoOfBias(handle)
    } else if leave() {
      drainLoop(handle)
    }
  }

  /// The owner lets go. If the bias was revoked meanwhile, someone may have queued an item
  /// for it (see `backOff`): look, fenced. Nothing may follow (see `releaseParked`).
  @inlinable @inline(__always)
  func letGoOfBias(_ handle: (Item) -> Void) {
    holder.store(0, ordering: .releasing)  // see `isQuiet`
    ownerIn.store(0, ordering: .releasing)
    AsymmetricFence.lightSide()
    if bias.load(ordering: .relaxed) != rxc_thread_self() { return revokedWhileHeld(handle) }
    if parked.load(ordering: .relaxed) != nil { releaseParked() }
  }

  /// The owner's items queued while it held by its bias: its own re-entrant ones, and once a
  /// revocation found it inside, other threads'. Once revoked it stops and leaves the rest to
  /// the shared protocol, which is fair to the other threads.
  @usableFromInline @inline(never)
  func biasedDrain(_ handle: (Item) -> Void) {
    let me = rxc_thread_self()
    while bias.load(ordering: .relaxed) == me {
      queueLock.lock()
      swap(&queue, &batch)
      queued.store(0, ordering: .releasing)  // see `isQuiet`
      queueLock.unlock()
      if batch.isEmpty { break }
      while let item = batch.popFirst() { handle(item) }
    }
    letGoOfBias(handle)
  }

  @usableFromInline @inline(never)
  func revokedWhileHeld(_ handle: (Item) -> Void) {
    atomicMemoryFence(ordering: .sequentiallyConsistent)
    if queued.load(ordering: .relaxed) != 0 && tryEnter() { return drainLoop(handle) }
    if parked.load(ordering: .sequentiallyConsistent) != nil { releaseParked() }
  }

  /// Lets go of the drain (held by CAS) unless items are queued. True if the caller (still
  /// or again) holds it and must drain. When it returns false it may have freed the drain's
  /// owner (`releaseParked`): the caller touches nothing more.
  @inlinable @inline(__always)
  public func leave() -> Bool {
    if queued.load(ordering: .relaxed) != 0 { return true }
    holder.store(0, ordering: .releasing)  // see `isQuiet`
    held.store(0, ordering: .releasing)
    AsymmetricFence.lightSide()
    if mode.load(ordering: .relaxed) != 0 { return recheck() }
    // Only this thread can have parked an owner (see the type comment).
    if parked.load(ordering: .relaxed) != nil { releaseParked() }
    return false
  }

  /// Queues `item` for the holder, or drains it (and anything else) if the drain went free
  /// meanwhile: for callers whose `tryEnter` failed.
  @inlinable
  public func submitQueued(_ item: Item, _ handle: (Item) -> Void) {
    if holder.load(ordering: .relaxed) == rxc_thread_self() {
      enqueue(item)  // re-entrant: the holder looks at the queue before it lets go
    } else {
      submitForeign(item, handle)
    }
  }

  /// The shared side of `leave`: the fence pairs with the one in `submitForeign`, so either
  /// this sees the submitter's item or the submitter sees the drain free.
  @usableFromInline @inline(never)
  func recheck() -> Bool {
    atomicMemoryFence(ordering: .sequentiallyConsistent)
    if queued.load(ordering: .relaxed) != 0 && tryEnter() { return true }
    if parked.load(ordering: .sequentiallyConsistent) != nil { releaseParked() }
    return false
  }

  @usableFromInline @inline(never)
  func submitForeign(_ item: Item, _ handle: (Item) -> Void) {
    makeShared()
    enqueue(item)
    atomicMemoryFence(ordering: .sequentiallyConsistent)
    if handoff.load(ordering: .relaxed) == 1 && takeOver(handle) { return }
    if tryEnter() { return drainLoop(handle) }
    if queued.load(ordering: .relaxed) >= Self.backlogLimit { waitForBacklog(handle) }
  }

  /// Items queued for the holder above which a foreign submitter waits (`waitForBacklog`).
  @usableFromInline static var backlogLimit: Int { 4096 }

  /// Lets the holder catch up before a foreign submitter returns. Threads that emit faster
  /// than one holder delivers would otherwise grow the queue without bound (four threads
  /// flooding one subject: 220 MB for 8M elements). The submitter's item is queued and its
  /// hand-off done; it only waits, yielding its CPU to the holder, until half the backlog is
  /// gone or the holder offers its role, for 2 ms at most: the holder's callback may itself
  /// be waiting for this thread.
  @usableFromInline @inline(never)
  func waitForBacklog(_ handle: (Item) -> Void) {
    let deadline = MonotonicClock.now() &+ 2_000_000
    var spins = 0
    while queued.load(ordering: .relaxed) > Self.backlogLimit / 2 {
      if handoff.load(ordering: .acquiring) == 1 && takeOver(handle) { return }
      spins &+= 1
      if spins & 63 == 0 {
        if MonotonicClock.now() > deadline { return }
        sched_yield()
      }
    }
  }

  /// From now on every holder fences when it lets go. Every thread that has not seen the
  /// switch finished runs the barrier itself: one that skipped it while another thread's
  /// barrier was still under way could miss an in-flight holder's "free" store.
  @usableFromInline @inline(never)
  func makeShared() {
    if mode.load(ordering: .acquiring) == 2 { return }
    mode.store(1, ordering: .sequentiallyConsistent)
    AsymmetricFence.heavySide()
    mode.store(2, ordering: .releasing)
  }

  /// Takes the holder's role if it is still on offer, then drains in its place.
  @usableFromInline @inline(never)
  func takeOver(_ handle: (Item) -> Void) -> Bool {
    guard handoff.compareExchange(expected: 1, desired: 2, ordering: .acquiringAndReleasing).exchanged
    else { return false }
    // Wait for the previous holder to let go: after that it touches nothing of this drain.
    var spins = 0
    while handoff.load(ordering: .acquiring) != 0 {
      spins += 1
      if spins > 64 { sched_yield() }
    }
    // The role came by hand, not by CAS, so check what `tryEnter` checks: the offering
    // holder may have biased the drain to itself (`biasTo` read `mode` before a foreign
    // submitter made it shared) and its next emission would enter by that bias while this
    // thread drains. Revoke it; if its owner is inside, the owner drains what is queued.
    if enteredWithBias(bias.load(ordering: .relaxed), rxc_thread_self()) { drainLoop(handle) }
    return true
  }

  /// Offers the holder's role to the next foreign submitter. True if one took it: the
  /// caller must return at once and touch nothing more of this drain.
  @usableFromInline @inline(never)
  func offerHandoff() -> Bool {
    if mode.load(ordering: .relaxed) != 2 { return false }  // nobody else submits
    holder.store(0, ordering: .releasing)  // the taker's identity goes here, never a stale one
    handoff.store(1, ordering: .releasing)
    // A short spin, then a few yields: a submitter that is not running now (one core, or a
    // tool that runs one thread at a time, as valgrind does) gets the CPU to take the offer;
    // without that, this thread could go on draining another thread's stream for ever.
    for round in 0..<4 {
      if round > 0 { sched_yield() }
      for _ in 0..<2048 {
        if handoff.load(ordering: .acquiring) == 2 { break }
      }
      if handoff.load(ordering: .acquiring) == 2 { break }
    }
    if handoff.compareExchange(expected: 1, desired: 0, ordering: .acquiringAndReleasing).exchanged {
      holder.store(rxc_thread_self(), ordering: .relaxed)
      return false  // nobody came: keep draining
    }
    handoff.store(0, ordering: .releasing)  // taken: let the taker go
    return true
  }

  @usableFromInline @inline(never)
  func enqueue(_ item: Item) {
    queueLock.lock()
    queue.append(item)
    queued.store(queue.count, ordering: .relaxed)
    queueLock.unlock()
  }

  /// Drains the queue (the caller holds the drain), then lets go.
  @usableFromInline @inline(never)
  func drainLoop(_ handle: (Item) -> Void) {
    var handled = 0
    repeat {
      // Take the queue a batch at a time (one lock per batch, not per item). The queue and
      // `batch` trade buffers, so a warm drain allocates nothing.
      while true {
        queueLock.lock()
        swap(&queue, &batch)
        queued.store(0, ordering: .releasing)  // see `isQuiet`
        queueLock.unlock()
        if batch.isEmpty { break }
        while let item = batch.popFirst() {
          handle(item)
          handled += 1
        }
        // Between batches (`batch` is empty): offer the role if this thread did its share.
        if handled >= Self.fairShare {
          if offerHandoff() { return }
          handled = 0
        }
      }
    } while leave()
  }

  /// Keeps `owner` (the object that owns this drain) alive until the drain is let go. For an
  /// owner whose last reference is dropped from inside one of its own handlers (a C
  /// callback releasing its subject): the handler's caller still runs on the owner. Costs
  /// the hot path nothing but one plain load when it lets go.
  public func keepAliveWhileDraining(_ owner: AnyObject) {
    guard isDraining else { return }
    // The holder reads `parked` after its "free" store: from a foreign thread that is the
    // lost wake-up of the type comment, so switch to the fenced protocol first.
    if holder.load(ordering: .relaxed) != rxc_thread_self() {
      revokeBias()
      makeShared()
    }
    let p = Unmanaged.passRetained(owner).toOpaque()
    if let previous = parked.exchange(p, ordering: .sequentiallyConsistent) {
      Unmanaged<AnyObject>.fromOpaque(previous).release()
    }
    // The holder may have let go before it could see `p`: then nobody else will take it.
    // (Both sides store, then load the other's word, sequentially consistent: at least one
    // of them sees the other.)
    if held.load(ordering: .sequentiallyConsistent) == 0 && ownerIn.load(ordering: .sequentiallyConsistent) == 0 {
      releaseParked()
    }
  }

  /// Called last by a holder: this may free the drain itself, so nothing may follow it.
  @usableFromInline @inline(never)
  func releaseParked() {
    if let p = parked.exchange(nil, ordering: .acquiringAndReleasing) {
      Unmanaged<AnyObject>.fromOpaque(p).release()
    }
  }
}
