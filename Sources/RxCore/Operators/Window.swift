// rx:value-leaf name=ValueWindowProducer copy=run,makeWindow
/// Splits the source into windows (RxSwift's window(timeSpan:count:scheduler:)): each window
/// is an observable of the elements that arrive while it is open, emitted as it opens. A
/// window closes when it has had `count` elements or `timeSpan` after it opened, whichever
/// comes first, and the next one opens at once. `count` nil is time only; `timeSpan` nil is
/// count only (no timer). The first window opens on subscription; the source's error or
/// completion goes to the open window, then downstream.
///
/// A window is hot (a `PublishSubject`): a late subscriber misses what came before. The
/// source subscription lives while the outer subscription or any window subscription does
/// (a `RefCountDisposable`): disposing the outer one lets subscribed windows run to their end.
class Window<Element, Output>: WindowingProducer<Element, Observable<Element>, Output> {
  public override func run(_ observer: Observer<Output>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    WindowSink(observer: observer, cancel: cancel, parameters: self).start(source)
  }

  /// The observable of one window (a hook for the Value leaf).
  func makeWindow(_ subject: PublishSubject<Element>, _ refCount: RefCountDisposable) -> Observable<Element> {
    WindowObservable(subject: subject, refCount: refCount)
  }
}

// rx:value-leaf on next={onNext(pointer: element)} super=handle
/// Source events and timer ticks go through one Drain, whose handler owns the state. Unlike
/// other sinks, it keeps handling them after the outer subscription is disposed: windows
/// still subscribed get their elements until the source subscription ends.
class WindowSink<Element, Output>: Sink<Element, Output> {
  let parameters: Window<Element, Output>
  private let drain = Drain<TimedInput<Element, UInt64>>()
  private let timer = SerialDisposable()
  private let sourceSubscription = SingleAssignmentDisposable()
  /// Owns the source subscription and the timer; the outer subscription is its primary
  /// reference, each window subscription another one.
  let refCount: RefCountDisposable
  // Drain-owned.
  private var subject = PublishSubject<Element>()
  private var count = 0
  private var windowID: UInt64 = 0
  private var stopped = false
  private let windowTimer: WindowTimer?

  init(observer: Observer<Output>, cancel: any Cancelable, parameters: Window<Element, Output>) {
    self.parameters = parameters
    windowTimer = parameters.windowing.timer
    refCount = RefCountDisposable(BinaryDisposable(sourceSubscription, timer))
    super.init(observer: observer, cancel: cancel)
  }

  /// Emits the first window, arms its timer, then subscribes.
  final func start(_ source: Observable<Element>) -> (sink: any Disposable, subscription: any Disposable) {
    forwardOn(.next(parameters.make(parameters.makeWindow(subject, refCount))))
    armTimer(0)
    _ = sourceSubscription.trySet(source.subscribe(self))
    return (self, refCount)
  }

  private final func armTimer(_ window: UInt64) {
    // Count only: no timer, so no callback made (a closure context per window).
    guard let windowTimer else { return }
    windowTimer.arm(timer) { self.submit(.tick(window)) }
  }

  override func on(_ event: Event<Element>) { submit(.event(event)) }

  /// Not gated by `isDisposed` (see the type's comment).
  final func submit(_ input: TimedInput<Element, UInt64>) { drain.submit(input) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item) } } }

  /// Wants more while the source subscription lives, not only while the outer one does.
  override var wantsNoMoreEvents: Bool { refCount.isDisposed }

  /// `on(.next)` by pointer: into the open window where it lies when the drain is free.
  final func onNext(pointer element: UnsafePointer<Element>) {
    @inline(__always) func runInline() { next(at: element) }
    drain.submit(.event(.next(element.pointee)), inline: runInline) {
      [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item) }
    }
  }

  /// An element (drain-owned): into the open window, which closes once full.
  private final func next(at element: UnsafePointer<Element>) {
    if stopped || refCount.isDisposed { return }
    subject.emitNext(at: element)
    count += 1
    if let limit = parameters.windowing.count, count >= limit { openNextWindow() }
  }

  func handle(_ input: TimedInput<Element, UInt64>) {
    if stopped || refCount.isDisposed { return }
    switch input {
    case .event(.next(let element)):
      _withUnprotectedUnsafePointer(to: element) { next(at: $0) }
    case .event(.error(let error)):
      stop()
      subject.on(.error(error))
      forwardTerminal(.error(error))
    case .event(.completed):
      stop()
      subject.on(.completed)
      forwardTerminal(.completed)
    case .tick(let window):
      if window == windowID { openNextWindow() }
    }
  }

  private final func stop() {
    stopped = true
    timer.dispose()
  }

  /// Completes the open window and emits the next one (nobody gets it once the outer
  /// subscription is disposed).
  private final func openNextWindow() {
    count = 0
    windowID &+= 1
    subject.on(.completed)
    subject = PublishSubject<Element>()
    forwardOn(.next(parameters.make(parameters.makeWindow(subject, refCount))))
    armTimer(windowID)
  }
}

// rx:value-leaf copy=run
/// One window: a subscription to its subject that holds a reference to the source
/// subscription until it ends.
class WindowObservable<Element>: Producer<Element> {
  let subject: PublishSubject<Element>
  let refCount: RefCountDisposable

  init(subject: PublishSubject<Element>, refCount: RefCountDisposable) {
    self.subject = subject
    self.refCount = refCount
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    start(WindowObserver(observer: observer, cancel: cancel))
  }

  /// `run`'s answer for a sink of this window (the leaf's too): subscribed to the subject,
  /// holding a reference to the source subscription.
  @inline(__always)
  final func start(_ sink: consuming WindowObserver<Element>) -> (sink: any Disposable, subscription: any Disposable) {
    let subscription = BinaryDisposable(refCount.retain(), subject.subscribe(sink))
    return (consume sink, subscription)
  }
}

// rx:value-leaf on next=forward
/// Forwards a window's events; a terminal one ends the subscription, and with it the reference.
class WindowObserver<Element>: Sink<Element, Element> {
  override func on(_ event: Event<Element>) {
    switch event {
    case .next: forwardOn(event)
    case .error, .completed: forwardTerminal(event)
    }
  }
}

extension ObservableType {
  public func window(timeSpan: Int64?, count: Int?, scheduler: Scheduler?) -> Observable<Observable<Element>> {
    Window(source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler, make: { $0 })
  }
}

extension Observable where Element == Value {
  /// `window` for the element type the core is specialized for: each window is made into a
  /// Value by `make` (the C layer boxes it as an observable).
  public func window(timeSpan: Int64?, count: Int?, scheduler: Scheduler?,
                     make: @escaping (Observable<Value>) -> Value) -> Observable<Value>
  {
    ValueWindowProducer(source: self, timeSpan: timeSpan, count: count, scheduler: scheduler, make: make)
  }
}
