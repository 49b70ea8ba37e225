// rx:value-leaf name=ValuePlainBufferProducer args=Value,[Value] copy=run
/// Collects values into arrays (RxSwift's buffer(timeSpan:count:scheduler:)): a buffer is
/// emitted when it holds `count` values or `timeSpan` after its window opened, whichever
/// comes first, and a new window opens. `count` nil is time only; `timeSpan` nil is count
/// only (no timer; completion emits the rest only if there is any). A timed buffer emits its
/// current contents on completion even when empty.
class Buffer<Element, Output>: WindowingProducer<Element, ContiguousArray<Element>, Output> {
  public override func run(_ observer: Observer<Output>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    BufferSink(observer: observer, cancel: cancel, parameters: self).start(source)
  }
}

// rx:value-leaf name=ValuePlainBufferSink args=Value,[Value] on next={onNext(pointer: element)} super=pack,handle
class BufferSink<Element, Output>:
  TimedSink<Buffer<Element, Output>, Element, Output, TimedInput<Element, UInt64>>
{
  private var buffer = ContiguousArray<Element>()
  private var windowID: UInt64 = 0
  /// The most elements a window's buffer is made for up front.
  private static var reservedLimit: Int { 1024 }
  /// The window's count (`Int.max` for time only), and whether it has no time span: read
  /// per element, so plain fields of the sink.
  private let limit: Int
  private let untimed: Bool
  private let windowTimer: WindowTimer?

  override init(observer: Observer<Output>, cancel: any Cancelable, parameters: Buffer<Element, Output>) {
    limit = parameters.windowing.count ?? .max
    untimed = parameters.windowing.timeSpan == nil
    windowTimer = parameters.windowing.timer
    super.init(observer: observer, cancel: cancel, parameters: parameters)
  }

  /// Arms the first window's timer, then subscribes.
  final func start(_ source: Observable<Element>) -> (sink: any Disposable, subscription: any Disposable) {
    armTimer(0)
    return run(source)
  }

  private final func armTimer(_ window: UInt64) {
    // Count only: no timer, so no callback made (a closure context per window).
    guard let windowTimer else { return }
    windowTimer.arm(timer) { self.submit(.tick(window)) }
  }

  override func on(_ event: Event<Element>) {
    // Count only: no timer to take turns with, and a source's events come one at a time,
    // so they are handled in place, with no drain (as any untimed operator's are).
    if untimed {
      if !isDisposed { handleEvent(event) }
      return
    }
    submit(.event(event))
  }

  /// `on(.next)` by pointer: copied straight into the window (through the drain only with
  /// a time span, and only when it is held).
  final func onNext(pointer element: UnsafePointer<Element>) {
    if untimed {
      if !isDisposed { next(at: element) }
      return
    }
    @inline(__always) func runInline() { next(at: element) }
    submitNext(.event(.next(element.pointee)), inline: runInline)
  }

  override func handle(_ input: TimedInput<Element, UInt64>) {
    switch input {
    case .event(let event): handleEvent(event)
    case .tick(let window):
      if window == windowID { emitAndOpenWindow() }
    }
  }

  /// An element: into the window, which goes out once full.
  @inline(__always) private final func next(at element: UnsafePointer<Element>) {
    // Room for the whole window at its first element: no reallocation while it fills (a
    // count past `reservedLimit` grows as it fills; time only grows as it fills).
    if buffer.capacity == 0 && limit != .max { buffer.reserveCapacity(Swift.min(limit, BufferSink.reservedLimit)) }
    buffer.append(element.pointee)
    if buffer.count >= limit { emitAndOpenWindow() }
  }

  /// A source event: in place (count only) or from the drain.
  private final func handleEvent(_ event: Event<Element>) {
    switch event {
    case .next(let element):
      _withUnprotectedUnsafePointer(to: element) { next(at: $0) }
    case .error(let error):
      buffer = []
      forwardTerminal(.error(error))
    case .completed:
      if parameters.windowing.timeSpan != nil || !buffer.isEmpty { forwardOn(.next(pack(&buffer))) }
      buffer = []
      forwardTerminal(.completed)
    }
  }

  private final func emitAndOpenWindow() {
    windowID &+= 1
    forwardNext(owned: pack(&buffer))
    armTimer(windowID)
  }

  /// The window's output, `buffer` left empty for the next window (a hook: the Value leaf
  /// may refill the output it sent last, and keep its storage).
  func pack(_ buffer: inout ContiguousArray<Element>) -> Output {
    let full = buffer
    buffer = []
    return parameters.make(full)
  }
}

extension ObservableType {
  // rx:value-overload
  public func buffer(timeSpan: Int64?, count: Int?, scheduler: Scheduler?) -> Observable<[Element]> {
    Buffer(source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler, make: { Array($0) })
  }
}

extension Observable where Element == Value {
  /// `buffer` for the element type the core is specialized for: each buffer is made into
  /// a Value by `make` (the C layer boxes it as an array).
  ///
  /// `refill`, if given, lets a subscription reuse the output it emitted last once nothing
  /// else refers to it (the subscriber kept no reference): it is handed that output's object
  /// (what `make` boxed) and the next full buffer, puts the buffer into the object, and leaves
  /// the object's old contents in `buffer`, emptied (their storage is then the next window's).
  /// A stream of buffers then allocates no output and no storage per window.
  public func buffer(timeSpan: Int64?, count: Int?, scheduler: Scheduler?,
                     make: @escaping (ContiguousArray<Value>) -> Value,
                     refill: ((AnyObject, inout ContiguousArray<Value>) -> Void)? = nil) -> Observable<Value>
  {
    ValueBufferProducer(source: self, timeSpan: timeSpan, count: count, scheduler: scheduler, make: make, refill: refill)
  }
}

// rx:hand-leaf: refills the box it sent last in place (`refill`), a path only Value has.
// Specialized for Value (see Value), both forms (count, time, or both): the overrides
// inline the generic bodies, and the timer callbacks they create are specialized with them.
final class ValueBufferProducer: Buffer<Value, Value> {
  let refill: ((AnyObject, inout ContiguousArray<Value>) -> Void)?

  init(source: Observable<Value>, timeSpan: Int64?, count: Int?, scheduler: Scheduler?,
       make: @escaping (ContiguousArray<Value>) -> Value, refill: ((AnyObject, inout ContiguousArray<Value>) -> Void)?)
  {
    self.refill = refill
    super.init(source: source, timeSpan: timeSpan, count: count, scheduler: scheduler, make: make)
  }

  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    ValueBufferSink(refill: refill, observer: observer, cancel: cancel, parameters: self).start(source)
  }
}

// rx:hand-leaf: refills the box it sent last in place (`refill`), a path only Value has.
final class ValueBufferSink: BufferSink<Value, Value> {
  let refill: ((AnyObject, inout ContiguousArray<Value>) -> Void)?
  /// The output sent last, kept for `refill` (only when there is one).
  var previous = Value.none

  init(refill: ((AnyObject, inout ContiguousArray<Value>) -> Void)?, observer: Observer<Value>, cancel: any Cancelable,
       parameters: Buffer<Value, Value>)
  {
    self.refill = refill
    super.init(observer: observer, cancel: cancel, parameters: parameters)
  }

  override func pack(_ buffer: inout ContiguousArray<Value>) -> Value {
    // Called in place (`refill!`), not bound first: a bound closure is retained and released.
    if refill == nil { return super.pack(&buffer) }
    if let kept = previous.unretainedObject, kept._withUnsafeGuaranteedRef({ ThreadSpare.isSolelyOwned($0) }) {
      kept._withUnsafeGuaranteedRef { refill!($0, &buffer) }
      return previous
    }
    previous = super.pack(&buffer)
    return previous
  }

  override func on(_ event: Event<Value>) { super.on(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { onNext(pointer: element) }
  override func handle(_ input: TimedInput<Value, UInt64>) { super.handle(input) }
}
