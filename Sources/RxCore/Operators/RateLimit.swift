import Synchronization

// rx:value-leaf name=ValueRateLimitProducer copy=run
/// At most `count` elements per sliding window of `window` nanoseconds: an element within
/// the rate is forwarded at once, on the thread that sent it; the others wait in a buffer
/// (a `FlowBuffer`: at most `capacity`, or unbounded) and are forwarded in order on
/// `scheduler` as soon as the window allows. A terminal event waits behind the buffered
/// elements (as in a bounded observe_on): completion and an error alike. Under `fail` (and
/// `block`, which cannot wait here) an overflow drops the element, disposes upstream, and
/// fails the stream with `RxError.overflow` after the buffered elements.
@_spi(RxC) public class RateLimit<Element>: Producer<Element>, FlowCounted {
  let source: Observable<Element>
  let count: Int
  let window: Int64
  let scheduler: Scheduler
  let limit: FlowLimit
  let onDropped: ((Element) -> Void)?
  /// Summed over the subscriptions.
  public var counters: FlowCounters { limit.counters }
  public var flowCounters: FlowCounters? { limit.counters }
  public var flowStats: FlowStats? { FlowStats(limit.counters) }

  init(source: Observable<Element>, count: Int, window: Int64, scheduler: Scheduler, capacity: Int?,
       policy: FlowPolicy, onDropped: ((Element) -> Void)?)
  {
    precondition(count > 0 && window > 0, "rateLimit needs a count and a window")
    self.source = source
    self.count = count
    self.window = window
    self.scheduler = scheduler
    // No capacity: a buffer that never fills.
    self.limit = FlowLimit(policy: capacity == nil ? .dropNewest : policy, capacity: capacity ?? Int.max,
                           counters: FlowCounters())
    self.onDropped = onDropped
  }

  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    RateLimitSink(observer: observer, cancel: cancel, parameters: self).start(source)
  }
}

// rx:value-leaf on next={onNext(pointer: element)} super=handle
class RateLimitSink<Element>: TimedSink<RateLimit<Element>, Element, Element, TimedInput<Element, Void>> {
  private let upstream = SingleAssignmentDisposable()
  // Drain-owned.
  private var buffer: FlowBuffer<Element>
  /// When the last `count` elements were forwarded, oldest first.
  private var sent = RingBuffer<Int64>()
  /// The source's terminal event (or the overflow error), waiting for the buffer to empty.
  private var terminal: Event<Element>?
  private var stopped = false
  private var armed = false
  /// The producer's scheduler, unretained (this sink holds the producer): read through the
  /// producer, it was retained and released on every clock read and timer.
  private let scheduler: Unmanaged<Scheduler>

  override init(observer: Observer<Element>, cancel: any Cancelable, parameters: RateLimit<Element>) {
    buffer = FlowBuffer(limit: parameters.limit, onDropped: parameters.onDropped)
    scheduler = Unmanaged.passUnretained(parameters.scheduler)
    super.init(observer: observer, cancel: cancel, parameters: parameters)
  }

  private final var now: Int64 { scheduler._withUnsafeGuaranteedRef { $0.now } }

  final func start(_ source: Observable<Element>) -> (sink: any Disposable, subscription: any Disposable) {
    _ = upstream.trySet(source.subscribe(self))
    return (self, BinaryDisposable(upstream, timer))
  }

  override func on(_ event: Event<Element>) { submit(.event(event)) }

  /// `on(.next)` by pointer: handled where it is when the drain is free.
  final func onNext(pointer element: UnsafePointer<Element>) {
    submitNext(.event(.next(element.pointee)), inline: { next(at: element) })
  }

  /// An element (drain-owned): sent now if the window has room and nothing waits, else
  /// buffered (an overflow stops the stream).
  private func next(at element: UnsafePointer<Element>) {
    if stopped { return }
    buffer.limit.counters.received.wrappingAdd(1, ordering: .relaxed)
    let now = self.now
    if buffer.isEmpty && allows(now) {
      buffer.limit.counters.delivered.wrappingAdd(1, ordering: .relaxed)
      return send(at: element)
    }
    if !buffer.offer(element.pointee) {
      stopped = true
      terminal = .error(RxError.overflow)
      upstream.dispose()
    }
    arm(now)
  }

  override func handle(_ input: TimedInput<Element, Void>) {
    switch input {
    case .event(.next(let element)):
      _withUnprotectedUnsafePointer(to: element) { next(at: $0) }
    case .event(let stop):
      if stopped { return }
      stopped = true
      if buffer.isEmpty { return forwardTerminal(stop) }
      terminal = stop
    case .tick:
      armed = false
      // The clock read again per element: each send takes time, and the window counts from
      // when a delivery ended.
      while allows(now), let element = buffer.take() {
        _withUnprotectedUnsafePointer(to: element) { send(at: $0) }
        if isDisposed { return }
      }
      if !buffer.isEmpty { return arm(now) }
      if let stop = terminal {
        terminal = nil
        forwardTerminal(stop)
      }
    }
  }

  /// Whether one more element fits in the window ending at `now`.
  private final func allows(_ now: Int64) -> Bool {
    sent.count < parameters.count || now &- sent.first! >= parameters.window
  }

  /// Forwards `element`, then stamps it with the clock as the delivery returns: a subscriber
  /// that reads the clock in its callback sees any `count + 1` deliveries span at least the
  /// window (a stamp taken before the call would let a slow delivery eat into the window).
  private final func send(at element: UnsafePointer<Element>) {
    forwardNext(at: element)
    if sent.count == parameters.count { _ = sent.popFirst() }
    sent.append(now)
  }

  /// Arms the timer for when the oldest forwarded element leaves the window (once: the
  /// tick forwards what it can and arms the next).
  private final func arm(_ now: Int64) {
    if armed { return }
    armed = true
    // The elapsed part is in [0, window) here, so this cannot overflow even for a huge window.
    let due = sent.count < parameters.count ? 0 : Swift.max(0, parameters.window - (now &- sent.first!))
    scheduler._withUnsafeGuaranteedRef { schedule(after: due, on: $0) }
  }
}

extension ObservableType {
  // rx:value-overload
  /// At most `count` elements per sliding `window` (see `RateLimit`); `capacity` nil is an
  /// unbounded buffer. `onDropped` runs on the thread whose element made the drop.
  public func rateLimit(_ count: Int, per window: Int64, scheduler: Scheduler, capacity: Int? = nil,
                        policy: FlowPolicy = .dropNewest, onDropped: ((Element) -> Void)? = nil) -> Observable<Element>
  {
    RateLimit(source: asObservable(), count: count, window: window, scheduler: scheduler, capacity: capacity,
              policy: policy, onDropped: onDropped)
  }
}
