import CRxc
import CRxcCore
import RxCore
import Synchronization

/// The end of every subscription made from C, and its rx_disposable token: one object per
/// subscription. It calls the rx_observer's function pointers and keeps rxc.h's
/// promises about them (section 5):
/// - callbacks of one subscription never overlap (its source serializes them), and none
///   starts once rx_dispose has returned;
/// - on_disposed runs exactly once, after every other callback: on the thread that delivers
///   the terminal event or disposes, or, if a callback is running elsewhere at that moment,
///   on that thread right after it returns.
///
/// The delivering side makes no atomic read-modify-write (a subject delivering to one or a
/// hundred C observers has no room for one per callback: `make bench`, W1 and W2): it marks `inCallback` and checks STOPPED with plain loads and stores.
/// The rare disposer pays instead, for the store-then-load ordering that needs: it sets
/// STOPPED, then a process-wide barrier (membarrier) makes sure that a deliverer either sees
/// STOPPED before its next callback or is visibly inside one; in that case the two settle
/// who runs on_disposed with one RMW each (PENDING from the disposer, LEFT from the
/// deliverer). A subscription to a subject skips even the barrier when the subject removed
/// it inline, under the subject's own serialization (`unlisted`).
///
/// A subject lists this observer without a reference of its own (`attachedToSubject`): the
/// Swift reference behind the C references stays until the subject has let go too
/// (`listed`/`unlisted`). Nor does the token hold a reference to the subject when it is on a
/// loan (`SubjectLender`, for tokens made on the subject's owner thread). A subscribe and
/// dispose that the subject serves inline (`make bench`, W4) thus cost the token one RMW; which
/// calls are inline, the subject's notices learn from `rxc_member_call`.
final class CObserver: Observer<RxValue>, Cancelable {
  private static let stopped: UInt64 = 1  // no callback may start any more
  private static let disposed: UInt64 = 2  // the token was disposed (idempotence)
  private static let pending: UInt64 = 4  // a disposer left on_disposed to the deliverer
  private static let left: UInt64 = 8  // a deliverer saw STOPPED after a callback
  private static let final: UInt64 = 16  // on_disposed is claimed
  private static let listed: UInt64 = 32  // a subject lists it on the C references' reference
  private static let listedRetained: UInt64 = 64  // ... on a reference of its own
  private static let unlisted: UInt64 = 128  // the subject let go of it
  /// Tags of `rxc_member_call`: this observer's own subject call.
  private static let attaching: UInt = 1, detaching: UInt = 2
  /// One C reference to the token: they are counted in the high half of `state`, so that
  /// rx_dispose cancels and drops its reference with one RMW.
  private static let cRef: UInt64 = 1 << 32

  // The ABI header, at the offsets every handle has (AbiObject: 16 and 24, right after the
  // Swift object header; the superclass has no stored properties). Do not reorder.
  final var magic: UInt64 = AbiObject.liveMagic
  final let kind: ObjectKind = .disposable
  /// The slot a subject keeps this observer in (drain-owned, see `Observer.subjectSlot`).
  /// Before `state`, which it packs with `kind` into one word.
  private var slot: Int32 = -1
  /// The flags above, and the count of C references to the token (high half; the Swift
  /// reference backing them is one).
  private let state: Atomic<UInt64>
  /// `var` only for reuse (`revive`).
  private(set) var callbacks: rx_observer
  /// Set once before the token exists; afterwards taken only by the one winning `dispose`, or
  /// emptied when the token's life ends (`retire`, deinit).
  private var upstream: Upstream = .none
  /// Written only by the (serialized) deliverer; read by a disposer after the barrier.
  private let inCallback = Atomic<Bool>(false)
  /// The one thread that has delivered to this observer (`rxc_thread_self`), 0 before any,
  /// `manyDeliverers` once a second one has. A disposer on that thread (or before any
  /// delivery) needs no process barrier: no other thread can be inside a callback.
  private let deliverer = Atomic<UInt>(0)
  private static let manyDeliverers: UInt = 1
  /// Set by the subject during this observer's own inline `detachOwned` call (and read by
  /// the same thread right after it).
  private var detachedInline = false

  private enum Upstream {
    case none
    case disposable(any Disposable)
    case subject(any AbiSubject)
    /// A subject this token borrows, on a loan from its observable (see `SubjectLender`).
    case lent(Unmanaged<SubjectObservable>)
  }

  init(_ callbacks: rx_observer) {
    Resources.increment()  // first: after the stores, ARC keeps a retain/release of self around it
    self.callbacks = callbacks
    state = Atomic(Self.cRef)
    super.init()
    rxc_set_token_class(unsafeBitCast(CObserver.self as AnyClass, to: UnsafeRawPointer.self))
  }

  /// The token of a subscription that ended inside rx_subscribe (see `runToEnd`).
  @inline(__always)
  private static func ended(_ callbacks: rx_observer) -> Unmanaged<CObserver> {
    let o = make(callbacks)
    o._withUnsafeGuaranteedRef { $0.state.store(Self.cRef | Self.stopped | Self.final, ordering: .relaxed) }
    return o
  }

  deinit {
    if slot != Self.spareSlot { Resources.decrement() }  // a spare was counted out already
    endLoan()
  }

  // MARK: delivering side

  override func on(_ event: Event<RxValue>) {
    // Plain payloads are read straight out of the event: binding the whole RxValue would
    // copy it (an outlined copy and destroy per callback).
    var v = rx_value()
    switch event {
    case .next(.int(let i)): v.kind = RX_INT; v.i = i
    case .next(.double(let d)): v.kind = RX_DOUBLE; v.d = d
    case .next(.bool(let b)): v.kind = RX_BOOL; v.b = b
    case .next(.ptr(let p)): v.kind = RX_PTR; v.ptr = p
    case .next(.none): v.kind = RX_NONE
    case .next(.boxed(let box)): return withExtendedLifetime(box) { next(RxValue.boxed(box).c) }
    case .error, .completed: return stop(with: event)
    }
    next(v)
  }

  /// A subject's or observe_on's delivery (see `Observer.onNext(at:)`): straight to the C
  /// callback.
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<RxValue>) {
    next(RxValue.c(at: element))
  }

  /// A subject's delivery to this observer and the C observers listed after it: the value
  /// is converted once, and each observer's `next` is a direct call.
  override func onNext(at element: UnsafePointer<RxValue>, run: SubjectRun) -> Int {
    let v = RxValue.c(at: element)
    let cls = Unmanaged.passUnretained(self).toOpaque().load(as: UnsafeRawPointer.self)
    nextInRun(v)
    var slot = run.first + 1
    while SubjectRun.isMember(slot.pointee, ofClass: cls) {
      Unmanaged<CObserver>.fromOpaque(SubjectRun.object(slot.pointee))._withUnsafeGuaranteedRef { $0.nextInRun(v) }
      slot += 1
    }
    return slot - run.first
  }

  /// Only with an on_next: a run's observers have one (`nextInRun` calls it unchecked).
  override var deliversRuns: Bool { callbacks.on_next != nil }

  @inline(__always)
  private func nextInRun(_ value: rx_value) {
    enter()
    if state.load(ordering: .acquiring) & Self.stopped == 0 {
      callbacks.on_next.unsafelyUnwrapped(callbacks.ctx, value)
    }
    leave()
  }

  @inline(__always)
  private func next(_ value: rx_value) {
    enter()
    if state.load(ordering: .acquiring) & Self.stopped == 0 {
      callbacks.on_next?(callbacks.ctx, value)
    }
    leave()
  }

  /// A run of elements (a replay subject's buffer) in one callback window: one enter and
  /// leave, and a plain STOPPED check before each element.
  override func onNext(contentsOf elements: UnsafeBufferPointer<RxValue>) {
    guard let onNext = callbacks.on_next, var p = elements.baseAddress else { return }
    let ctx = callbacks.ctx
    enter()
    let end = p + elements.count
    while p < end {  // by address: a for-in would copy each element
      if state.load(ordering: .acquiring) & Self.stopped != 0 { break }
      onNext(ctx, RxValue.c(at: p))
      p += 1
    }
    leave()
  }

  @inline(__always)
  private func enter() {
    if deliverer.load(ordering: .relaxed) != rxc_thread_self() { claimDeliverer() }
    inCallback.store(true, ordering: .relaxed)
    AsymmetricFence.lightSide()  // the CPU may still reorder: that is what the disposer's barrier is for
  }

  @inline(__always)
  private func leave() {
    AsymmetricFence.lightSide()
    inCallback.store(false, ordering: .releasing)
    AsymmetricFence.lightSide()
    if state.load(ordering: .acquiring) & Self.stopped != 0 { leftAfterStop() }
  }

  /// A thread's first delivery: it becomes the deliverer, or there are now several. The full
  /// fence pairs with the one in `disposerIsTheOnlyDeliverer` (Dekker): either the disposer
  /// sees this claim, or this thread's STOPPED check, after it, sees the disposer's.
  /// (Once there are several, each delivery comes here and leaves at once: the claim that
  /// made them several was fenced, and no later one changes anything.)
  @inline(never)
  private func claimDeliverer() {
    let me = rxc_thread_self()
    var old = deliverer.load(ordering: .relaxed)
    if old == Self.manyDeliverers { return }
    while old != me && old != Self.manyDeliverers {
      let r = deliverer.compareExchange(
        expected: old, desired: old == 0 ? me : Self.manyDeliverers, ordering: .sequentiallyConsistent)
      if r.exchanged { break }
      old = r.original
    }
    atomicMemoryFence(ordering: .sequentiallyConsistent)
  }

  /// For a disposer that has set STOPPED: true if no thread but this one has delivered (see
  /// `claimDeliverer`).
  private func disposerIsTheOnlyDeliverer() -> Bool {
    atomicMemoryFence(ordering: .sequentiallyConsistent)
    let d = deliverer.load(ordering: .sequentiallyConsistent)
    return d == 0 || d == rxc_thread_self()
  }

  /// A deliverer that saw STOPPED: if a disposer left on_disposed to it (PENDING), run it.
  private func leftAfterStop() {
    if state.bitwiseOr(Self.left, ordering: .acquiringAndReleasing).oldValue & Self.pending != 0 {
      claimFinal()
    }
  }

  /// A terminal event: the first stop wins; it then owes on_disposed itself.
  private func stop(with event: Event<RxValue>) {
    inCallback.store(true, ordering: .relaxed)
    let old = state.bitwiseOr(Self.stopped, ordering: .acquiringAndReleasing).oldValue
    if old & Self.stopped != 0 {  // disposed or dropped first
      inCallback.store(false, ordering: .releasing)
      return leftAfterStop()
    }
    switch event {
    case .next: break
    case .error(let error):
      let e = ErrorObject.from(error)
      callbacks.on_error?(callbacks.ctx, e.cPointer)
      withExtendedLifetime(e) {}
    case .completed:
      callbacks.on_completed?(callbacks.ctx)
    }
    inCallback.store(false, ordering: .releasing)
    claimFinal()
  }

  /// Runs on_disposed unless someone already did.
  private func claimFinal() {
    if state.bitwiseOr(Self.final, ordering: .acquiringAndReleasing).oldValue & Self.final == 0 {
      runOnDisposed()
    }
  }

  override var wantsNoMoreEvents: Bool { state.load(ordering: .acquiring) & Self.stopped != 0 }

  override var subjectSlot: Int {
    get { Int(slot) }
    set { slot = Int32(truncatingIfNeeded: newValue) }
  }

  override func attachedToSubject() {
    if rxc_member_call() == call(Self.attaching) {
      // Inside `attach(to:)`: the token does not exist yet, so nothing else touches `state`.
      state.store(state.load(ordering: .relaxed) | Self.listed, ordering: .relaxed)
    } else {  // a queued attach: its C references may all be gone already
      Unmanaged.passUnretained(self).retain()
      state.bitwiseOr(Self.listedRetained, ordering: .relaxed)
    }
  }

  override func detachedFromSubject() {
    if rxc_member_call() == call(Self.detaching) { return detachedInline = true }  // `cancel` settles it
    settleUnlisted()
  }

  /// The subject let go: drops the reference the listing held, if nothing else needs it.
  /// May end this object's life.
  private func settleUnlisted() {
    let old = state.bitwiseOr(Self.unlisted, ordering: .acquiringAndReleasing).oldValue
    if old & Self.listedRetained != 0 || (old < Self.cRef && !debugPoison) {
      Self.retire(Unmanaged.passUnretained(self))
    }
  }

  /// True while a listing keeps the C references' Swift reference.
  private static func waitsForSubject(_ s: UInt64) -> Bool { s & (listed | unlisted) == listed }

  /// This observer's mark for `rxc_member_call`.
  private func call(_ tag: UInt) -> UInt { UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque()) | tag }

  // MARK: ending without an event

  /// The source dropped this observer (a disposed subject), or a tap's subscription ended.
  override func dropped() {
    if state.bitwiseOr(Self.stopped, ordering: .acquiringAndReleasing).oldValue & Self.stopped == 0 {
      finishAfterStop()
    }
  }

  /// After this thread set STOPPED: run on_disposed now, or leave it to a deliverer that is
  /// inside a callback on another thread. Only a PENDING hand-off lets a deliverer claim
  /// on_disposed too, so the other two ways run it without claiming FINAL.
  @inline(__always)
  private func finishAfterStop() {
    if detachedInline || state.load(ordering: .acquiring) & Self.unlisted != 0 { return runOnDisposed() }
    finishAfterStopElsewhere()
  }

  /// `finishAfterStop` when a deliverer may be inside a callback on another thread. A
  /// disposer that is the only thread ever to deliver (its subscription through operators,
  /// say, fed on this thread) skips the barrier: `inCallback` is then its own.
  @inline(never)
  private func finishAfterStopElsewhere() {
    if !disposerIsTheOnlyDeliverer() { AsymmetricFence.heavySide() }
    if inCallback.load(ordering: .acquiring) {
      if state.bitwiseOr(Self.pending, ordering: .acquiringAndReleasing).oldValue & Self.left != 0 {
        claimFinal()
      }
    } else {
      runOnDisposed()
    }
  }

  private func runOnDisposed() { callbacks.on_disposed?(callbacks.ctx) }

  var isDisposed: Bool { state.load(ordering: .acquiring) & (Self.stopped | Self.disposed) != 0 }

  /// Cancels the subscription: upstream first (so taps made by rx_do see the dispose, and
  /// run their on_disposed, before this observer's), then this observer. Idempotent.
  func dispose() {
    if cancel(after: state.bitwiseOr(Self.stopped | Self.disposed, ordering: .acquiringAndReleasing).oldValue) {
      settleUnlisted()
    }
  }

  /// rx_dispose on a token: `dispose`, then `dropCReference`, with one RMW when the caller's
  /// reference is the only one (then no other thread can drop one while `cancel` runs) and
  /// the subject, if any, lets go inline. True when the caller must now release the Swift
  /// reference that backed the C references.
  @inline(__always)
  func disposeAndDropCReference() -> Bool {
    var old = state.load(ordering: .relaxed)
    var early: Bool
    while true {
      early = old >> 32 == 1 && (old & (Self.listed | Self.listedRetained) == 0 || old & Self.unlisted != 0)
      let new = (old | Self.stopped | Self.disposed) &- (early ? Self.cRef : 0)
      let r = state.compareExchange(expected: old, desired: new, ordering: .acquiringAndReleasing)
      if r.exchanged { break }
      old = r.original
    }
    let inline = cancel(after: old)
    if inline && old >> 32 == 1 && old & Self.listed != 0 {
      // The subject let go on this thread, inside `cancel`, and no other reference exists:
      // nothing else touches `state` any more.
      state.store((state.load(ordering: .relaxed) | Self.unlisted) &- Self.cRef, ordering: .relaxed)
      return lastCReferenceDropped()
    }
    // (A queued attach may have listed it after the RMW above: `early` says nothing of that.)
    if inline { settleUnlisted() }
    return early ? lastCReferenceDropped() : dropCReference()
  }

  /// The rest of `dispose`, after the RMW that set STOPPED and DISPOSED returned `old`. True
  /// when the subject let go of this observer inline, leaving `settleUnlisted` to the caller.
  @inline(__always)
  private func cancel(after old: UInt64) -> Bool {
    if old & Self.disposed != 0 { return false }
    var u = Upstream.none
    swap(&u, &upstream)  // takes the reference without a retain/release pair
    switch consume u {
    case .none: break
    case .disposable(let d): d.dispose()
    case .subject(let s):
      let outer = rxc_member_call()
      rxc_set_member_call(call(Self.detaching))
      s.detachOwned(self)
      rxc_set_member_call(outer)
    case .lent(let lender):
      let outer = rxc_member_call()
      rxc_set_member_call(call(Self.detaching))
      lender._withUnsafeGuaranteedRef { $0.detachOwned(self) }
      rxc_set_member_call(outer)
      Self.giveBack(lender)
    }
    if old & Self.stopped == 0 { finishAfterStop() }
    return detachedInline
  }

  // MARK: subscribing and the token

  /// Runs a subscription that ends before its token exists (an rx_just, or a map/filter
  /// pipeline on one): `element`'s outcome as on_next and on_completed, or on_error, then
  /// on_disposed, called in a row. No rx_dispose can reach a token that does not exist yet,
  /// so none of the delivery handshake is needed: the token is born ended.
  /// `run` hands the element, if there is one, to its argument (valid for that call), or
  /// throws.
  @inline(__always)
  static func runToEnd(_ callbacks: rx_observer, _ run: (_ next: (rx_value) -> Void) throws -> Void)
    -> UnsafeMutablePointer<rx_disposable>
  {
    let token = ended(callbacks).toOpaque()
    do {
      try run { callbacks.on_next?(callbacks.ctx, $0) }
      callbacks.on_completed?(callbacks.ctx)
    } catch {
      let e = ErrorObject.from(error)
      callbacks.on_error?(callbacks.ctx, e.cPointer)
      withExtendedLifetime(e) {}
    }
    callbacks.on_disposed?(callbacks.ctx)
    return token.assumingMemoryBound(to: rx_disposable.self)
  }

  /// The upstream subscription this observer's token disposes. Called once, before the
  /// token exists.
  func attach(_ upstream: any Disposable) { setUpstream { .disposable(upstream) } }

  /// Sets `upstream`, which is empty (a new token, or a spare: see `retire`), without the
  /// outlined destroy of an old value.
  @inline(__always)
  private func setUpstream(_ u: () -> Upstream) {
    if case .none = upstream {} else { assertionFailure("a token's upstream is set once") }
    withUnsafeMutablePointer(to: &upstream) { $0.initialize(to: u()) }
  }

  /// Subscribes to a subject as an owned member, on a loan that `lender` made for this
  /// thread: no subscription object besides this one, and no reference count on the subject.
  @inline(__always)
  func attach(lentBy lender: SubjectObservable) {
    // Set first: the loan must end even if the attach is queued and this token never listed.
    setUpstream { .lent(Unmanaged.passUnretained(lender)) }
    let outer = rxc_member_call()
    rxc_set_member_call(call(Self.attaching))
    lender.attachOwned(self)
    rxc_set_member_call(outer)
  }

  /// Ends the loan of a token whose subscription ended without `cancel` (it was dropped or
  /// ran to its end, and was then released): it touches its subject no more.
  private func endLoan() {
    guard case .lent(let lender) = upstream else { return }
    upstream = .none
    Self.giveBack(lender)
  }

  /// Empties `upstream` of a token whose life ended: a loan still out ends, a reference
  /// still held goes (as deinit would let go of it).
  @inline(__always)
  fileprivate func emptyUpstream() {
    if case .none = upstream { return }
    emptyUpstreamNow()
  }

  @inline(never)
  private func emptyUpstreamNow() {
    endLoan()
    upstream = .none
  }

  /// The last thing a token does with its subject (this may free it).
  @inline(__always)
  private static func giveBack(_ lender: Unmanaged<SubjectObservable>) {
    if lender._withUnsafeGuaranteedRef({ $0.giveBack() }) { lender.release() }
  }

  /// Subscribes to a subject as an owned member: no subscription object besides this one.
  /// Borrows `subject` (a caller's `let`): its one retain is the one `upstream` keeps.
  func attach(to subject: borrowing any AbiSubject) {
    // No dispose can come before the token exists, so `upstream` may be set after.
    let outer = rxc_member_call()
    rxc_set_member_call(call(Self.attaching))
    subject.attachOwned(self)
    rxc_set_member_call(outer)
    setUpstream { .subject(copy subject) }
  }

  /// A subscription to a subject's observable: its token.
  @inline(__always)
  static func subscribe(_ callbacks: rx_observer, to subject: Unmanaged<SubjectObservable>)
    -> UnsafeMutablePointer<rx_disposable>
  {
    let o = make(callbacks)
    o._withUnsafeGuaranteedRef { observer in subject._withUnsafeGuaranteedRef { $0.attach(observer) } }
    return o.toOpaque().assumingMemoryBound(to: rx_disposable.self)
  }

  /// A subscription to any other observable: its token.
  @inline(never)
  static func subscribe(_ callbacks: rx_observer, to observable: Observable<RxValue>) -> UnsafeMutablePointer<rx_disposable> {
    make(callbacks)._withUnsafeGuaranteedRef { o in
      o.attach(observable.subscribe(o))
      return o.token
    }
  }

  /// A new observer, returned with the one reference that its C token will own.
  @inline(__always)
  static func make(_ callbacks: rx_observer) -> Unmanaged<CObserver> {
    if let p = rxc_spare_take_token() {
      let o = Unmanaged<CObserver>.fromOpaque(p)
      o._withUnsafeGuaranteedRef { $0.revive(callbacks) }
      return o
    }
    return Unmanaged.passRetained(CObserver(callbacks))
  }

  /// The token: this object (its C reference is the one `make` returned).
  var token: UnsafeMutablePointer<rx_disposable> {
    Unmanaged.passUnretained(self).toOpaque().assumingMemoryBound(to: rx_disposable.self)
  }

  func retainC() -> Bool {
    var current = state.load(ordering: .relaxed)
    while current >= Self.cRef {
      let r = state.compareExchange(expected: current, desired: current + Self.cRef, ordering: .relaxed)
      if r.exchanged { return true }
      current = r.original
    }
    return false
  }

  func releaseC() {
    if dropCReference() { Self.retire(Unmanaged.passUnretained(self)) }
  }

  /// Drops one C reference; true when the caller must now release the Swift reference that
  /// backed them (the last one went, no subject listing waits on it, and RXC_DEBUG is not
  /// keeping the token poisoned).
  func dropCReference() -> Bool {
    // The caller's reference is the only one, no subject lists it and nothing else holds
    // the object (e.g. a token that ended inside rx_subscribe, W5): no other thread can
    // touch `state`, so a plain store does.
    let s = state.load(ordering: .acquiring)
    if s >> 32 == 1 && s & (Self.listed | Self.listedRetained) == 0
      && swift_isUniquelyReferenced_nonNull_native(Unmanaged.passUnretained(self).toOpaque())
      && mayReuseUniqueObject()
    {
      state.store(s - Self.cRef, ordering: .relaxed)
      return lastCReferenceDropped()
    }
    let old = state.wrappingSubtract(Self.cRef, ordering: .acquiringAndReleasing).oldValue
    return old >> 32 == 1 && lastCReferenceDropped() && !Self.waitsForSubject(old)
  }

  @inline(__always)
  private func lastCReferenceDropped() -> Bool {
    magic = AbiObject.deadMagic
    // Poisoned tokens stay allocated for ever and stop counting as live (see Handle).
    if debugPoison {
      Resources.decrement()
      return false
    }
    return true
  }

  /// The object behind a pointer already checked to be a live rx_disposable: a token when its
  /// class is exactly this one.
  static func token(at p: UnsafeRawPointer) -> CObserver? {
    isToken(p) ? Unmanaged<CObserver>.fromOpaque(p).takeUnretainedValue() : nil
  }

  @inline(__always)
  static func isToken(_ p: UnsafeRawPointer) -> Bool {
    p.load(as: UnsafeRawPointer.self) == rxc_token_class()
  }

  /// rx_dispose on a token (checked live).
  @inline(__always)
  static func dispose(token p: UnsafeMutableRawPointer) -> rx_status {
    let token = Unmanaged<CObserver>.fromOpaque(p)
    if token._withUnsafeGuaranteedRef({ $0.disposeAndDropCReference() }) { retire(token) }
    return RX_OK
  }

  /// rx_release on a token (checked live).
  @inline(never)
  static func release(token p: UnsafeMutableRawPointer) {
    let token = Unmanaged<CObserver>.fromOpaque(p)
    if token._withUnsafeGuaranteedRef({ $0.dropOnlyReference() }) { return retireUnique(token) }
    if token._withUnsafeGuaranteedRef({ $0.dropCReference() }) { retire(token) }
  }

  /// `dropCReference` when the caller's reference is the only one of any kind and no subject
  /// lists the token (a token that ended inside rx_subscribe, W5): nothing else can touch it,
  /// so plain stores do. False, and nothing done, otherwise.
  @inline(__always)
  private func dropOnlyReference() -> Bool {
    let s = state.load(ordering: .acquiring)
    guard s >> 32 == 1 && s & (Self.listed | Self.listedRetained) == 0
      && swift_isUniquelyReferenced_nonNull_native(Unmanaged.passUnretained(self).toOpaque())
      && mayReuseUniqueObject() && !debugPoison
    else { return false }
    state.store(s &- Self.cRef, ordering: .relaxed)
    magic = AbiObject.deadMagic
    return true
  }
}

// MARK: reuse

/// Each thread keeps the last token it let go of for its next subscription (as it keeps
/// observable handles, see ObservableHandle.retire): a subscribe + dispose then skips a
/// malloc, a free and the object's set-up and tear-down. The spare is empty (its callbacks'
/// on_disposed has run; it holds no upstream), dead (dead magic, not counted by Resources)
/// and owned by the thread's slot; the thread's exit releases it. Never under RXC_DEBUG,
/// where released tokens stay poisoned (they never get here).
extension CObserver {
  /// A reserved `slot` value: this object is a spare, already counted out of Resources.
  fileprivate static var spareSlot: Int32 { Int32.min }

  /// Releases the Swift reference that backed the token's C references (or a listing's):
  /// kept as this thread's spare if nothing else holds the object and the slot is free.
  @inline(__always)
  static func retire(_ o: Unmanaged<CObserver>) {
    var obs = o.takeRetainedValue()
    guard isKnownUniquelyReferenced(&obs), mayReuseUniqueObject() else { return }
    obs.emptyUpstream()
    Resources.decrement()
    obs.slot = spareSlot
    let p = Unmanaged.passRetained(consume obs).toOpaque()
    if !keepAsSpare(p, { rxc_spare_put_token($0) }) { Unmanaged<CObserver>.fromOpaque(p).release() }
  }

  /// `retire` for a token known to have no other reference (`dropOnlyReference`).
  @inline(__always)
  fileprivate static func retireUnique(_ o: Unmanaged<CObserver>) {
    o._withUnsafeGuaranteedRef {
      $0.emptyUpstream()
      $0.slot = spareSlot
    }
    Resources.decrement()
    if !keepAsSpare(o.toOpaque(), { rxc_spare_put_token($0) }) { o.release() }
  }

  /// A spare made live again with one C reference, for `callbacks`.
  fileprivate func revive(_ callbacks: rx_observer) {
    Resources.increment()
    magic = AbiObject.liveMagic
    slot = -1
    self.callbacks = callbacks
    state.store(Self.cRef, ordering: .relaxed)
    inCallback.store(false, ordering: .relaxed)
    detachedInline = false
  }
}
