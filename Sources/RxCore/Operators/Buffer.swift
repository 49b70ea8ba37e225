/// Collects values into arrays (RxSwift's buffer(timeSpan:count:scheduler:)): a buffer is
/// emitted when it holds `count` values or `timeSpan` after its window opened, whichever
/// comes first, and a new window opens. `count` nil is time only; `timeSpan` nil is count
/// only (no timer; completion emits the rest only if there is any). A timed buffer emits its
/// current contents on completion even when empty. Events and ticks go through a Drain.
public class Buffer<Element, Output>: Producer<Output> {
  let source: Observable<Element>
  let timeSpan: Int64?
  let count: Int?
  let scheduler: Scheduler?
  let make: (ContiguousArray<Element>) -> Output

  public init(source: Observable<Element>, timeSpan: Int64?, count: Int?, scheduler: Scheduler?,
              make: @escaping (ContiguousArray<Element>) -> Output)
  {
    precondition(timeSpan != nil || count != nil, "buffer needs a time span or a count")
    precondition(timeSpan == nil || scheduler != nil, "a timed buffer needs a scheduler")
    self.source = source
    self.timeSpan = timeSpan.map { Swift.max(0, $0) }
    self.count = count
    self.scheduler = scheduler
    self.make = make
  }

  public override func run(_ observer: Observer<Output>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = BufferSink(observer: observer, cancel: cancel, parent: self)
    sink.armTimer(0)
    let subscription = source.subscribe(sink)
    return (sink, BinaryDisposable(subscription, sink.timer))
  }
}

class BufferSink<Element, Output>: Sink<Element, Output> {
  enum Input { case event(Event<Element>), tick(UInt64) }
  let parent: Buffer<Element, Output>
  let timer = SerialDisposable()
  private let drain = Drain<Input>()
  private var buffer = ContiguousArray<Element>()
  private var windowID: UInt64 = 0

  init(observer: Observer<Output>, cancel: any Cancelable, parent: Buffer<Element, Output>) {
    self.parent = parent
    super.init(observer: observer, cancel: cancel)
  }

  final func armTimer(_ window: UInt64) {
    guard let span = parent.timeSpan, let scheduler = parent.scheduler else { return }
    // The first window's timer is armed outside the drain: setScheduled keeps a fast tick
    // from being disposed by this call finishing late.
    timer.setScheduled { scheduler.scheduleAfter(span) { self.submit(.tick(window)) } }
  }

  override func on(_ event: Event<Element>) { submit(.event(event)) }

  private final func submit(_ input: Input) { drain.submit(input) { self.handle($0) } }

  func handle(_ input: Input) {
    if isDisposed { return }
    switch input {
    case .event(.next(let element)):
      buffer.append(element)
      if let count = parent.count, buffer.count >= count { emitAndOpenWindow() }
    case .event(.error(let error)):
      buffer = []
      forwardTerminal(.error(error))
    case .event(.completed):
      if parent.timeSpan != nil || !buffer.isEmpty { forwardOn(.next(parent.make(buffer))) }
      buffer = []
      forwardTerminal(.completed)
    case .tick(let window):
      if window == windowID { emitAndOpenWindow() }
    }
  }

  private final func emitAndOpenWindow() {
    windowID &+= 1
    let full = buffer
    buffer = []
    forwardOn(.next(parent.make(full)))
    armTimer(windowID)
  }
}

extension ObservableType {
  public func buffer(timeSpan: Int64?, count: Int?, scheduler: Scheduler?) -> Observable<[Element]> {
    Buffer(source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler, make: { Array($0) })
  }
}

extension Observable where Element == Value {
  /// `buffer` for the element type the core is specialized for: each buffer is made into
  /// a Value by `make` (the C layer boxes it as an array).
  public func buffer(timeSpan: Int64?, count: Int?, scheduler: Scheduler?,
                     make: @escaping (ContiguousArray<Value>) -> Value) -> Observable<Value>
  {
    ValueBufferProducer(source: self, timeSpan: timeSpan, count: count, scheduler: scheduler, make: make)
  }
}

// Specialized for Value (see Value), both forms (count, time, or both): the overrides
// inline the generic bodies, and the timer callbacks they create are specialized with them.
final class ValueBufferProducer: Buffer<Value, Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValueBufferSink(observer: observer, cancel: cancel, parent: self)
    sink.armTimer(0)
    let subscription = source.subscribe(sink)
    return (sink, BinaryDisposable(subscription, sink.timer))
  }
}

final class ValueBufferSink: BufferSink<Value, Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
  override func handle(_ input: Input) { super.handle(input) }
}
