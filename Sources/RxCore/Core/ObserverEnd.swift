import CRxc
import CRxcCore
import Synchronization

/// The end of a subscription made from outside Swift, one object per subscription, which is
/// also the token the subscriber disposes it by (the C API's subscriber and rx_disposable).
/// What it calls is its subclass's (`ObserverEndCalls`); the protocol here keeps rxc.h's
/// promises about those calls (section 5):
/// - calls of one subscription never overlap (its source serializes them), and none starts
///   once a dispose has returned;
/// - the disposed call runs exactly once, after every other call: on the thread that
///   delivers the terminal event or disposes, or, if a call is running elsewhere at that
///   moment, on that thread right after it returns.
///
/// The delivering side makes no atomic read-modify-write (a subject delivering to one or a
/// hundred ends has no room for one per call: `make bench`, W1 and W2): it marks a call in
/// `delivery` and checks STOPPED with plain loads and stores.
/// The rare disposer pays instead, for the store-then-load ordering that needs: it sets
/// STOPPED, then a process-wide barrier (membarrier) makes sure that a deliverer either sees
/// STOPPED before its next call or is visibly inside one; in that case the two settle who
/// makes the disposed call with one RMW each (PENDING from the disposer, LEFT from the
/// deliverer). A subscription to a subject skips even the barrier when the subject removed
/// it inline, under the subject's own serialization (`unlisted`).
///
/// A subject lists this observer without a reference of its own (`attachedToSubject`): the
/// Swift reference behind the token's counted references stays until the subject has let
/// go too (`listed`/`unlisted`). Nor does the token hold a reference to the subject when it
/// is on a loan (`SubjectLender`, for tokens made on the subject's owner thread). A
/// subscribe and dispose that the subject serves inline (`make bench`, W4) thus cost the
/// token one RMW; which calls are inline, the subject's notices learn from
/// `rxc_member_call`.
///
/// One concern per file: delivering (here), ending (`ObserverEnd+Ending`), subject
/// membership (`ObserverEnd+Subjects`), the token's counted references
/// (`ObserverEnd+References`); the state word is a `TokenState`. Open only to the C layer
/// (SPI `RxC`), whose subclass makes the calls: not `package`, because a package class
/// cannot be subclassed from another module, and a package generic body is not specialized
/// there (each call would go through a witness table: +37 instructions per callback).
@_spi(RxC) public final class ObserverEnd: Observer<Value>, Cancelable {
  /// Tags of `rxc_member_call`: this observer's own subject call.
  @inlinable public static var attaching: UInt { 1 }
  @inlinable public static var detaching: UInt { 2 }
  /// Marks the `detaching` call once the subject let go inline (read by `cancel` right
  /// after it).
  @inlinable public static var detachedInline: UInt { 3 }

  /// Two words the embedding layer heads its handles with, at offsets 16 and 24 (right
  /// after the Swift object header; the superclass has no stored properties), which it
  /// checks a pointer by: the C layer's magic number and kind. Do not reorder.
  public final var magic: UInt64
  public final let kind: UInt32
  /// The slot a subject keeps this observer in (drain-owned, see `Observer.subjectSlot`).
  /// Before `state`, which it packs with `kind` into one word.
  public final var slot: Int32 = -1
  /// Its flags and the count of counted (C) references to the token (the Swift reference
  /// backing them is one).
  public final let state: AtomicTokenState
  /// Who delivers, and whether a call is running, in one word (with `upstream` and the
  /// subclass's calls the C layer's object takes 104 bytes: malloc's 112-byte chunks, not 128;
  /// `make bench`, W9): the one thread that has delivered to this observer
  /// (`rxc_thread_self`, a pointer aligned to more than 2), 0 before any, `manyDeliverers`
  /// once a second one has; plus `inCallback` while a call runs. Written only by the
  /// (serialized) deliverer; read by a disposer after the barrier. A disposer on the one
  /// deliverer's thread (or before any delivery) needs no process barrier: no other thread
  /// can be inside a call.
  public final let delivery = Atomic<UInt>(0)
  @inlinable public static var manyDeliverers: UInt { 2 }
  @inlinable public static var inCallback: UInt { 1 }
  /// What the token is subscribed to (`ObserverEnd+Upstream`). Set once before the token
  /// exists; afterwards taken only by the one winning `dispose`, or emptied when the token's
  /// life ends (`emptyUpstream`, `endLoan`).
  public final var upstream: Upstream = .none

  public enum Upstream {
    case none
    case disposable(any Disposable)
    case subject(any MemberSubject)
    /// A subject this token borrows, on a loan from its observable (see `SubjectLender`).
    case lent(Unmanaged<SubjectObservable>)
  }

  /// The C observer's calls (`var` only for reuse, `revive`).
  public var callbacks: rx_observer

  public init(_ callbacks: rx_observer) {
    Resources.increment()  // first: after the stores, ARC keeps a retain/release of self around it
    self.callbacks = callbacks
    magic = AbiObject.liveMagic
    kind = ObjectKind.disposable.rawValue
    state = AtomicTokenState(TokenState(oneReference: []))
    super.init()
    rxc_set_token_class(unsafeBitCast(ObserverEnd.self as AnyClass, to: UnsafeRawPointer.self))
  }

  deinit {
    if slot != Self.spareSlot { Resources.decrement() }  // a spare was counted out already
    endLoan()
  }

  /// A spare made live again with one counted reference (its subclass resets the rest).
  @inlinable
  public final func revive(magic: UInt64) {
    self.magic = magic
    slot = -1
    state.storeUnshared(TokenState(oneReference: []))
    delivery.store(0, ordering: .relaxed)
  }

  // MARK: delivering side

  /// Marks a call in `delivery`.
  @inlinable @inline(__always)
  public final func enter() {
    var d = delivery.load(ordering: .relaxed)  // no call is running: the flag is clear
    if d != rxc_thread_self() { d = claimDeliverer() }
    delivery.store(d | Self.inCallback, ordering: .relaxed)
    AsymmetricFence.lightSide()  // the CPU may still reorder: that is what the disposer's barrier is for
  }

  /// A thread's first delivery: it becomes the deliverer, or there are now several. The full
  /// fence pairs with the one in `disposerIsTheOnlyDeliverer` (Dekker): either the disposer
  /// sees this claim, or this thread's STOPPED check, after it, sees the disposer's.
  /// (Once there are several, each delivery comes here and leaves at once: the claim that
  /// made them several was fenced, and no later one changes anything.)
  @inline(never) @usableFromInline
  final func claimDeliverer() -> UInt {
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

  /// For a disposer that has set STOPPED: true if no thread but this one has delivered (see
  /// `claimDeliverer`).
  @inlinable
  public final func disposerIsTheOnlyDeliverer() -> Bool {
    atomicMemoryFence(ordering: .sequentiallyConsistent)
    let d = delivery.load(ordering: .sequentiallyConsistent) & ~Self.inCallback
    return d == 0 || d == rxc_thread_self()
  }

  public override var wantsNoMoreEvents: Bool { state.load().has(.stopped) }

  public override var subjectSlot: Int {
    get { Int(slot) }
    set { slot = Int32(truncatingIfNeeded: newValue) }
  }

  public override func attachedToSubject() {
    if rxc_member_call() == call(Self.attaching) {
      // Inside `attaching`: the token does not exist yet, so nothing else touches `state`.
      state.storeUnshared(state.loadUnshared().adding(.listed))
    } else {  // a queued attach: its counted references may all be gone already
      Unmanaged.passUnretained(self).retain()
      state.setRelaxed(.listedRetained)
    }
  }

  // MARK: the C calls

  public override func on(_ event: Event<Value>) {
    // Plain payloads are read straight out of the event: binding the whole Value would
    // copy it (an outlined copy and destroy per callback).
    var v = rx_value()
    switch event {
    case .next(.int(let i)): v.kind = RX_INT; v.i = i
    case .next(.double(let d)): v.kind = RX_DOUBLE; v.d = d
    case .next(.bool(let b)): v.kind = RX_BOOL; v.b = b
    case .next(.ptr(let p)): v.kind = RX_PTR; v.ptr = p
    case .next(.none): v.kind = RX_NONE
    case .next(.boxed(let box)): return withExtendedLifetime(box) { onNextC(Value.boxed(box).c) }
    case .error, .completed: return stop(with: event)
    }
    onNextC(v)
  }

  /// A subject's or observe_on's delivery (see `Observer.onNext(at:)`): straight to the C
  /// callback.
  public override var takesNextByPointer: Bool { true }
  public override func onNext(at element: UnsafePointer<Value>) {
    // Converted inside the call window: nothing but the pointer lives across the window's
    // rare out-of-line call (`claimDeliverer`), so one register is saved, not two.
    deliver { callbacks.on_next?(callbacks.ctx, Value.c(at: element)) }
  }

  /// A subject's delivery to this observer and the C observers listed after it: the value
  /// is converted once, and each observer's `next` is a direct call.
  public override func onNext(at element: UnsafePointer<Value>, run: SubjectRun) -> Int {
    let v = Value.c(at: element)
    return deliverToRun(run) { $0.nextInRun(v) }
  }

  /// Only with an on_next: a run's observers have one (`nextInRun` calls it unchecked).
  public override var deliversRuns: Bool { callbacks.on_next != nil }

  @inline(__always)
  private func nextInRun(_ value: rx_value) {
    deliver { callbacks.on_next.unsafelyUnwrapped(callbacks.ctx, value) }
  }

  /// An element that is already a C value (a C pipeline's result): no `Value` made and read
  /// back on the way.
  public final func onNextC(_ value: rx_value) {
    deliver { callbacks.on_next?(callbacks.ctx, value) }
  }

  /// A run of elements (a replay subject's buffer) in one callback window.
  public override func onNext(contentsOf elements: UnsafeBufferPointer<Value>) {
    guard let onNext = callbacks.on_next else { return }
    let ctx = callbacks.ctx
    deliverEach(elements) { onNext(ctx, Value.c(at: $0)) }
  }

  public override func detachedFromSubject() { detachedFromSubjectNotice() }

  /// The source dropped this observer (a disposed subject), or a tap's subscription ended.
  public override func dropped() { droppedBySource() }

  // MARK: the calls (`ObserverEndCalls`)

  public func callTerminal(_ event: Event<Value>) {
    switch event {
    case .next: break
    case .error(let error):
      let e = ErrorObject.from(error)
      callbacks.on_error?(callbacks.ctx, e.cPointer)
      withExtendedLifetime(e) {}
    case .completed:
      callbacks.on_completed?(callbacks.ctx)
    }
  }

  public func runOnDisposed() { callbacks.on_disposed?(callbacks.ctx) }

  public var keepsDeadTokens: Bool { debugPoison }

  @inline(__always)
  public func lastCReferenceDropped() -> Bool {
    magic = AbiObject.deadMagic
    // Poisoned tokens stay allocated for ever and stop counting as live (see Handle).
    if debugPoison {
      Resources.decrement()
      return false
    }
    return true
  }
}

extension ObserverEnd {
  /// One call, if the subscription has not stopped, in a marked window.
  @inlinable @inline(__always)
  public func deliver(_ call: () -> Void) {
    enter()
    if !state.load().has(.stopped) { call() }
    leave()
  }

  /// A subject's delivery to this observer and the observers of its class listed after it
  /// (see `Observer.onNext(at:run:)`): `each` makes the call on each, in its window.
  @inlinable @inline(__always)
  public func deliverToRun(_ run: SubjectRun, _ each: (ObserverEnd) -> Void) -> Int {
    let cls = Unmanaged.passUnretained(self).toOpaque().load(as: UnsafeRawPointer.self)
    each(self)
    var slot = run.first + 1
    while true {
      switch SubjectRun.step(slot.pointee, ofClass: cls) {
      case .deliver(let o): Unmanaged<ObserverEnd>.fromOpaque(o)._withUnsafeGuaranteedRef { each($0) }
      case .skip: break
      case .end: return slot - run.first
      }
      slot += 1
    }
  }

  /// A run of elements (a replay subject's buffer) in one call window: one enter and leave,
  /// and a plain STOPPED check before each element.
  @inlinable @inline(__always)
  public func deliverEach(_ elements: UnsafeBufferPointer<Value>, _ call: (UnsafePointer<Value>) -> Void) {
    guard var p = elements.baseAddress else { return }
    enter()
    let end = p + elements.count
    while p < end {  // by address: a for-in would copy each element
      if state.load().has(.stopped) { break }
      call(p)
      p += 1
    }
    leave()
  }

  @inlinable @inline(__always)
  public func leave() {
    AsymmetricFence.lightSide()
    delivery.store(delivery.load(ordering: .relaxed) & ~Self.inCallback, ordering: .releasing)
    AsymmetricFence.lightSide()
    if state.load().has(.stopped) { leftAfterStop() }
  }
}
