import CRxc
import CRxcCore
@_spi(RxC) import RxCore

/// The end of every subscription made from C, and its rx_disposable token: the core's
/// `ObserverEnd`, whose protocol keeps rxc.h's promises (section 5), making the calls of an
/// rx_observer. This class converts values and errors for them, and keeps what the token
/// is subscribed to (the core's `upstream`).
///
/// One concern per file: the calls (here, with the overrides Swift keeps in the class
/// body), subject membership (`CObserver+Subjects`), the token and its C references
/// (`CObserver+Token`), reuse (`CObserver+Reuse`).
final class CObserver: ObserverEnd, ObserverEndCalls, Cancelable {
  /// `var` only for reuse (`revive`).
  var callbacks: rx_observer

  init(_ callbacks: rx_observer) {
    Resources.increment()  // first: after the stores, ARC keeps a retain/release of self around it
    self.callbacks = callbacks
    super.init(magic: AbiObject.liveMagic, kind: ObjectKind.disposable.rawValue)
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
    // Converted inside the call window: nothing but the pointer lives across the window's
    // rare out-of-line call (`claimDeliverer`), so one register is saved, not two.
    deliver { callbacks.on_next?(callbacks.ctx, RxValue.c(at: element)) }
  }

  /// A subject's delivery to this observer and the C observers listed after it: the value
  /// is converted once, and each observer's `next` is a direct call.
  override func onNext(at element: UnsafePointer<RxValue>, run: SubjectRun) -> Int {
    let v = RxValue.c(at: element)
    return deliverToRun(run) { $0.nextInRun(v) }
  }

  /// Only with an on_next: a run's observers have one (`nextInRun` calls it unchecked).
  override var deliversRuns: Bool { callbacks.on_next != nil }

  @inline(__always)
  private func nextInRun(_ value: rx_value) {
    deliver { callbacks.on_next.unsafelyUnwrapped(callbacks.ctx, value) }
  }

  @inline(__always)
  private func next(_ value: rx_value) {
    deliver { callbacks.on_next?(callbacks.ctx, value) }
  }

  /// A run of elements (a replay subject's buffer) in one callback window.
  override func onNext(contentsOf elements: UnsafeBufferPointer<RxValue>) {
    guard let onNext = callbacks.on_next else { return }
    let ctx = callbacks.ctx
    deliverEach(elements) { onNext(ctx, RxValue.c(at: $0)) }
  }

  override func detachedFromSubject() { detachedFromSubjectNotice() }

  /// The source dropped this observer (a disposed subject), or a tap's subscription ended.
  override func dropped() { droppedBySource() }

  // MARK: the calls (`ObserverEndCalls`)

  func callTerminal(_ event: Event<RxValue>) {
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

  func runOnDisposed() { callbacks.on_disposed?(callbacks.ctx) }

  var keepsDeadTokens: Bool { debugPoison }

  @inline(__always)
  func lastCReferenceDropped() -> Bool {
    magic = AbiObject.deadMagic
    // Poisoned tokens stay allocated for ever and stop counting as live (see Handle).
    if debugPoison {
      Resources.decrement()
      return false
    }
    return true
  }
}
