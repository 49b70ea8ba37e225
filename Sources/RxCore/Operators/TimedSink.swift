/// The shell the time operators share (debounce, throttle, delay, timeout, buffer, skip and
/// take for a duration, retry with backoff): a sink whose source events and timer ticks go
/// through one `Drain`, so its state is touched by one thread at a time and downstream calls
/// never overlap, without a lock held over them. A tick
/// that fires early is queued behind the handler that armed it, so `schedule` is safe inside
/// `handle`.
///
/// An operator derives its sink from this one and overrides `on` (to submit its input) and
/// `handle`; its `Value` leaf overrides both with `super` (docs/SPECIALIZATION.md). `submit`
/// and `schedule` are final and inlined into the operator's code, so they add no call of their
/// own; `handle` is reached through the vtable (one indirect call per input), where the leaf's
/// override is the specialized body.
class TimedSink<Parameters, Element, Output, Input: TimerInput>: Sink<Element, Output> {
  /// The operator's parameters: a struct copied from the producer (a field of the sink is
  /// read without the retain and release a field of the producer costs), or the producer.
  let parameters: Parameters
  /// The pending timer; disposing the sink disposes it too.
  let timer = SerialDisposable()
  private let drain = Drain<Input>()

  init(observer: Observer<Output>, cancel: any Cancelable, parameters: Parameters) {
    self.parameters = parameters
    super.init(observer: observer, cancel: cancel)
  }

  /// Subscribes to `source`: the result of the producer's `run`. (The timer goes with the
  /// sink's dispose, not in a disposable of its own beside the subscription: one allocation
  /// fewer per subscribe.)
  final func run(_ source: Observable<Element>) -> (sink: any Disposable, subscription: any Disposable) {
    let subscription = source.subscribe(self)
    return (self, subscription)
  }

  override func dispose() {
    super.dispose()
    timer.dispose()
  }

  /// Hands `input` to `handle` once the drain gets to it, unless the sink is disposed by then.
  @inline(__always) final func submit(_ input: Input) {
    drain.submit(input) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { if !$0.isDisposed { $0.handle(item) } } }
  }

  /// A `.next` by pointer: when the drain is free `inline` runs on the element where it is
  /// (it must do what `handle` does with the element's input), else `input` is queued.
  @inline(__always) final func submitNext(_ input: @autoclosure () -> Input, inline: () -> Void) {
    @inline(__always) func runInline() { if !isDisposed { inline() } }
    drain.submit(input(), inline: runInline) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { if !$0.isDisposed { $0.handle(item) } } }
  }

  /// The operator's logic, for one input at a time.
  func handle(_ input: Input) {}

  /// Submits `.tick(tick)` after `delay`, cancelling the timer pending before. (The callback
  /// captures `tick` rather than an `Input`: a smaller context, no enum to copy and destroy.)
  @inline(__always) final func schedule(_ tick: Input.Tick, after delay: Int64, on scheduler: Scheduler) {
    timer.set(scheduler.scheduleAfter(delay) { self.submit(.tick(tick)) })
  }
}

extension TimedSink where Input.Tick == Void {
  /// `schedule` for ticks that carry nothing: the callback captures `self` alone, which
  /// serves as its context (capturing a `Void` too would allocate one per timer).
  @inline(__always) final func schedule(after delay: Int64, on scheduler: Scheduler) {
    timer.set(scheduler.scheduleAfter(delay) { self.submit(.tick(())) })
  }
}

/// What a `TimedSink` handles: a source event (in a form of its own), or a timer tick.
protocol TimerInput {
  /// What the handler arms a timer with (to tell a stale tick from the current one).
  associatedtype Tick
  static func tick(_ tick: Tick) -> Self
}

/// What most time operators submit.
enum TimedInput<Element, Tick>: TimerInput {
  case event(Event<Element>)
  case tick(Tick)
}

/// A due time (negative means 0) and the scheduler a time operator's timers run on.
struct Timing {
  let dueTime: Int64
  let scheduler: Scheduler
}

/// A time operator's producer: its source and its `Timing`.
class TimedProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  let timing: Timing

  public init(source: Observable<Element>, dueTime: Int64, scheduler: Scheduler) {
    self.source = source
    self.timing = Timing(dueTime: Swift.max(0, dueTime), scheduler: scheduler)
  }
}
