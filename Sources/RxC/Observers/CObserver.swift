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
/// hundred C observers has no room for one per callback: `make bench`, W1 and W2): it marks
/// a callback in `delivery` and checks STOPPED with plain loads and stores.
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
///
/// One concern per file: delivering (here, with the overrides Swift keeps in the class
/// body), ending (`CObserver+Ending`), subject membership (`CObserver+Subjects`), the token
/// and its C references (`CObserver+Token`), reuse (`CObserver+Reuse`); the state word is a
/// `TokenState`.
final class CObserver: Observer<RxValue>, Cancelable {
  /// Tags of `rxc_member_call`: this observer's own subject call.
  static let attaching: UInt = 1, detaching: UInt = 2
  /// Marks the `detaching` call once the subject let go inline (read by `cancel` right
  /// after it).
  static let detachedInline: UInt = 3

  // The ABI header, at the offsets every handle has (AbiObject: 16 and 24, right after the
  // Swift object header; the superclass has no stored properties). Do not reorder.
  final var magic: UInt64 = AbiObject.liveMagic
  final let kind: ObjectKind = .disposable
  /// The slot a subject keeps this observer in (drain-owned, see `Observer.subjectSlot`).
  /// Before `state`, which it packs with `kind` into one word.
  var slot: Int32 = -1
  /// Its flags and the count of C references to the token (the Swift reference backing
  /// them is one).
  let state: AtomicTokenState
  /// `var` only for reuse (`revive`).
  var callbacks: rx_observer
  /// Set once before the token exists; afterwards taken only by the one winning `dispose`, or
  /// emptied when the token's life ends (`retire`, deinit).
  var upstream: Upstream = .none
  /// Who delivers, and whether a callback is running, in one word (the object then takes
  /// 104 bytes: malloc's 112-byte chunks, not 128; `make bench`, W9): the one thread that has
  /// delivered to this observer (`rxc_thread_self`, a pointer aligned to more than 2), 0
  /// before any, `manyDeliverers` once a second one has; plus `inCallback` while a callback
  /// runs. Written only by the (serialized) deliverer; read by a disposer after the barrier.
  /// A disposer on the one deliverer's thread (or before any delivery) needs no process
  /// barrier: no other thread can be inside a callback.
  let delivery = Atomic<UInt>(0)
  static let manyDeliverers: UInt = 2
  static let inCallback: UInt = 1

  enum Upstream {
    case none
    case disposable(any Disposable)
    case subject(any AbiSubject)
    /// A subject this token borrows, on a loan from its observable (see `SubjectLender`).
    case lent(Unmanaged<SubjectObservable>)
  }

  init(_ callbacks: rx_observer) {
    Resources.increment()  // first: after the stores, ARC keeps a retain/release of self around it
    self.callbacks = callbacks
    state = AtomicTokenState(TokenState(oneReference: []))
    super.init()
    rxc_set_token_class(unsafeBitCast(CObserver.self as AnyClass, to: UnsafeRawPointer.self))
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
    if !state.load().has(.stopped) {
      callbacks.on_next.unsafelyUnwrapped(callbacks.ctx, value)
    }
    leave()
  }

  @inline(__always)
  private func next(_ value: rx_value) {
    enter()
    if !state.load().has(.stopped) {
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
      if state.load().has(.stopped) { break }
      onNext(ctx, RxValue.c(at: p))
      p += 1
    }
    leave()
  }

  /// Marks a callback in `delivery`.
  @inline(__always)
  private func enter() {
    var d = delivery.load(ordering: .relaxed)  // no callback is running: the flag is clear
    if d != rxc_thread_self() { d = claimDeliverer() }
    delivery.store(d | Self.inCallback, ordering: .relaxed)
    AsymmetricFence.lightSide()  // the CPU may still reorder: that is what the disposer's barrier is for
  }

  @inline(__always)
  private func leave() {
    AsymmetricFence.lightSide()
    delivery.store(delivery.load(ordering: .relaxed) & ~Self.inCallback, ordering: .releasing)
    AsymmetricFence.lightSide()
    if state.load().has(.stopped) { leftAfterStop() }
  }

  /// A thread's first delivery: it becomes the deliverer, or there are now several. The full
  /// fence pairs with the one in `disposerIsTheOnlyDeliverer` (Dekker): either the disposer
  /// sees this claim, or this thread's STOPPED check, after it, sees the disposer's.
  /// (Once there are several, each delivery comes here and leaves at once: the claim that
  /// made them several was fenced, and no later one changes anything.)
  @inline(never)
  private func claimDeliverer() -> UInt {
    let me = rxc_thread_self()
    assert(me & 3 == 0, "a thread pointer leaves room for the flag")
    var old = delivery.load(ordering: .relaxed)
    if old == Self.manyDeliverers { return old }
    while old != me && old != Self.manyDeliverers {
      let desired = old == 0 ? me : Self.manyDeliverers
      let r = delivery.compareExchange(expected: old, desired: desired, ordering: .sequentiallyConsistent)
      if r.exchanged {
        old = desired
        break
      }
      old = r.original
    }
    atomicMemoryFence(ordering: .sequentiallyConsistent)
    return old
  }

  override var wantsNoMoreEvents: Bool { state.load().has(.stopped) }

  override var subjectSlot: Int {
    get { Int(slot) }
    set { slot = Int32(truncatingIfNeeded: newValue) }
  }

  override func attachedToSubject() {
    if rxc_member_call() == call(Self.attaching) {
      // Inside `attach(to:)`: the token does not exist yet, so nothing else touches `state`.
      state.storeUnshared(state.loadUnshared().adding(.listed))
    } else {  // a queued attach: its C references may all be gone already
      Unmanaged.passUnretained(self).retain()
      state.setRelaxed(.listedRetained)
    }
  }

  override func detachedFromSubject() {
    if rxc_member_call() == call(Self.detaching) {  // `cancel` settles it
      return rxc_set_member_call(call(Self.detachedInline))
    }
    settleUnlisted()
  }

  /// The source dropped this observer (a disposed subject), or a tap's subscription ended.
  override func dropped() {
    if !state.set(.stopped).has(.stopped) {
      finishAfterStop(detachedInline: rxc_member_call() == call(Self.detachedInline))
    }
  }
}
