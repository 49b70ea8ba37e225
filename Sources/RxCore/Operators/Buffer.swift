/// Collects values into arrays (RxSwift's buffer(timeSpan:count:scheduler:)): a buffer is
/// emitted when it holds `count` values or `timeSpan` after its window opened, whichever
/// comes first, and a new window opens. `count` nil is time only; `timeSpan` nil is count
/// only (no timer; completion emits the rest only if there is any). A timed buffer emits its
/// current contents on completion even when empty.
public class Buffer<Element, Output>: Producer<Output> {
  let source: Observable<Element>
  let windowing: Windowing
  let make: (ContiguousArray<Element>) -> Output

  public init(source: Observable<Element>, timeSpan: Int64?, count: Int?, scheduler: Scheduler?,
              make: @escaping (ContiguousArray<Element>) -> Output)
  {
    self.source = source
    self.windowing = Windowing(timeSpan: timeSpan, count: count, scheduler: scheduler)
    self.make = make
  }

  public override func run(_ observer: Observer<Output>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    BufferSink(observer: observer, cancel: cancel, parameters: self).start(source)
  }
}

class BufferSink<Element, Output>:
  TimedSink<Buffer<Element, Output>, Element, Output, TimedInput<Element, UInt64>>
{
  private var buffer = ContiguousArray<Element>()
  private var windowID: UInt64 = 0
  /// The most elements a window's buffer is made for up front.
  private static var reservedLimit: Int { 1024 }

  /// Arms the first window's timer, then subscribes.
  final func start(_ source: Observable<Element>) -> (sink: any Disposable, subscription: any Disposable) {
    armTimer(0)
    return run(source)
  }

  private final func armTimer(_ window: UInt64) {
    // Count only: no timer, so no callback made (a closure context per window).
    if parameters.windowing.timeSpan == nil { return }
    parameters.windowing.arm(timer) { self.submit(.tick(window)) }
  }

  override func on(_ event: Event<Element>) {
    // Count only: no timer to take turns with, and a source's events come one at a time,
    // so they are handled in place, with no drain (as any untimed operator's are).
    if parameters.windowing.timeSpan == nil {
      if !isDisposed { handleEvent(event) }
      return
    }
    submit(.event(event))
  }

  /// `on(.next)` by pointer: copied straight into the window (through the drain only with
  /// a time span, and only when it is held).
  final func onNext(pointer element: UnsafePointer<Element>) {
    if parameters.windowing.timeSpan == nil {
      if !isDisposed { next(at: element) }
      return
    }
    submitNext(.event(.next(element.pointee)), inline: { next(at: element) })
  }

  override func handle(_ input: TimedInput<Element, UInt64>) {
    switch input {
    case .event(let event): handleEvent(event)
    case .tick(let window):
      if window == windowID { emitAndOpenWindow() }
    }
  }

  /// An element: into the window, which goes out once full.
  private final func next(at element: UnsafePointer<Element>) {
    if let count = parameters.windowing.count {
      // Room for the whole window at its first element: no reallocation while it fills
      // (a count past `reservedLimit` grows as it fills).
      if buffer.capacity == 0 { buffer.reserveCapacity(Swift.min(count, BufferSink.reservedLimit)) }
      buffer.append(element.pointee)
      if buffer.count >= count { emitAndOpenWindow() }
    } else {
      buffer.append(element.pointee)
    }
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
      if parameters.windowing.timeSpan != nil || !buffer.isEmpty { forwardOn(.next(parameters.make(buffer))) }
      buffer = []
      forwardTerminal(.completed)
    }
  }

  private final func emitAndOpenWindow() {
    windowID &+= 1
    let full = buffer
    buffer = []
    forwardOn(.next(parameters.make(full)))
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
    ValueBufferSink(observer: observer, cancel: cancel, parameters: self).start(source)
  }
}

final class ValueBufferSink: BufferSink<Value, Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { onNext(pointer: element) }
  override func handle(_ input: TimedInput<Value, UInt64>) { super.handle(input) }
}
