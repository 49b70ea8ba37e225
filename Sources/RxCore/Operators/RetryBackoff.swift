/// How `retry(backoff:scheduler:)` spaces its resubscriptions.
public struct Backoff: Sendable {
  /// The delay before the first resubscription (negative means 0).
  public var initialDelay: Int64
  /// Each delay is the previous one times this (at least 1).
  public var multiplier: Double
  /// The longest delay (0: no limit).
  public var maxDelay: Int64
  /// Subscriptions in all, the first included (0: forever); the last error is forwarded.
  public var maxAttempts: Int
  /// 0...1: each delay d becomes d * (1 - jitter * u), u uniform in [0, 1).
  public var jitter: Double
  /// The seed of the generator u is drawn from, restarted at each subscription.
  public var seed: UInt64
  /// A value resets the delay and the attempt count (the next failure is a first one).
  public var resetOnNext: Bool

  public init(initialDelay: Int64, multiplier: Double = 2, maxDelay: Int64 = 0, maxAttempts: Int = 0,
              jitter: Double = 0, seed: UInt64 = 0, resetOnNext: Bool = false) {
    self.initialDelay = Swift.max(0, initialDelay)
    self.multiplier = multiplier.isNaN ? 1 : Swift.max(1, multiplier)
    self.maxDelay = Swift.max(0, maxDelay)
    self.maxAttempts = Swift.max(0, maxAttempts)
    self.jitter = jitter.isNaN ? 0 : Swift.min(1, Swift.max(0, jitter))
    self.seed = seed
    self.resetOnNext = resetOnNext
  }
}

// rx:value-leaf name=ValueRetryBackoffProducer copy=run
/// Resubscribes to the source after an error, the n-th time after a delay of
/// initialDelay * multiplier^(n-1), at most maxDelay, shortened by the jitter; a completion
/// or an error when the attempts are used up ends the stream.
class RetryBackoff<Element>: Producer<Element> {
  let parameters: RetryBackoffParameters<Element>

  public init(source: Observable<Element>, backoff: Backoff, scheduler: Scheduler) {
    self.parameters = RetryBackoffParameters(source: source, backoff: backoff, scheduler: scheduler)
  }

  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    RetryBackoffSink(observer: observer, cancel: cancel, parameters: parameters).start()
  }
}

struct RetryBackoffParameters<Element> {
  let source: Observable<Element>
  let backoff: Backoff
  let scheduler: Scheduler
}

/// splitmix64: small, fast, and any seed (0 included) gives a full-period sequence.
struct SplitMix64 {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  /// Uniform in [0, 1), from the top 53 bits.
  mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
}

// rx:value-leaf on next={onNext(pointer: element)} super=handle
/// The source's events and the retry timer go through the `TimedSink` drain, so a source
/// that fails while being subscribed queues its error behind the subscription instead of
/// recursing into the next one.
class RetryBackoffSink<Element>: TimedSink<RetryBackoffParameters<Element>, Element, Element, TimedInput<Element, Int>> {
  /// The current attempt's subscription.
  private let current = SerialDisposable()
  private var attempts = 0
  /// The next delay before jitter, in nanoseconds (a Double: the growth may pass Int64.max).
  private var delay: Double = 0
  private var random: SplitMix64

  override init(observer: Observer<Element>, cancel: any Cancelable, parameters: RetryBackoffParameters<Element>) {
    random = SplitMix64(state: parameters.backoff.seed)
    super.init(observer: observer, cancel: cancel, parameters: parameters)
    delay = Double(parameters.backoff.initialDelay)
  }

  /// The first subscription is a tick handled at once, as every later one. Ticks carry the
  /// number of the attempt they start.
  final func start() -> (sink: any Disposable, subscription: any Disposable) {
    submit(.tick(1))
    return (self, BinaryDisposable(current, timer))
  }

  override func on(_ event: Event<Element>) { submit(.event(event)) }

  /// `on(.next)` by pointer: handled where it is when the drain is free.
  final func onNext(pointer element: UnsafePointer<Element>) {
    @inline(__always) func runInline() { next(at: element) }
    submitNext(.event(.next(element.pointee)), inline: runInline)
  }

  /// An element (drain-owned): a success resets the backoff if asked to, and goes on.
  private func next(at element: UnsafePointer<Element>) {
    if parameters.backoff.resetOnNext {
      attempts = 1
      delay = Double(parameters.backoff.initialDelay)
    }
    forwardNext(at: element)
  }

  override func handle(_ input: TimedInput<Element, Int>) {
    let backoff = parameters.backoff
    switch input {
    case .event(.next(let element)):
      _withUnprotectedUnsafePointer(to: element) { next(at: $0) }
    case .event(.completed):
      forwardTerminal(.completed)
    case .event(.error(let error)):
      if backoff.maxAttempts != 0 && attempts >= backoff.maxAttempts {
        forwardTerminal(.error(error))
        return
      }
      schedule(attempts + 1, after: nextDelay(backoff), on: parameters.scheduler)
    case .tick(let attempt):
      attempts = attempt
      let subscription = SingleAssignmentDisposable()
      current.set(subscription)  // releases the failed attempt's subscription
      subscription.trySet(parameters.source.subscribe(self))
    }
  }

  /// The delay for this retry, and the next one's before jitter.
  private func nextDelay(_ backoff: Backoff) -> Int64 {
    var d = delay
    if backoff.maxDelay > 0 { d = Swift.min(d, Double(backoff.maxDelay)) }
    delay = Swift.min(d * backoff.multiplier, 0x1p62)
    if backoff.jitter > 0 { d -= d * backoff.jitter * random.unit() }
    return Int64(Swift.min(d, 0x1p62))
  }
}

extension ObservableType {
  // rx:value-overload
  public func retry(backoff: Backoff, scheduler: Scheduler) -> Observable<Element> {
    RetryBackoff(source: asObservable(), backoff: backoff, scheduler: scheduler)
  }
}
