extension Observable {
  /// Forwards the source's elements only while the latest element of `pauser` is true; it
  /// starts paused, and elements that arrive while paused are ignored. Terminal events of
  /// the source, and an error of `pauser`, end the stream; `pauser` completing keeps its
  /// last state.
  public func pausable(_ pauser: Observable<Bool>) -> Observable<Element> {
    PausableProducer(source: self, pauser: pauser, isOn: { $0 }, limit: nil, onDropped: nil)
  }

  /// `pausable`, but elements that arrive while paused wait in a buffer of at most
  /// `capacity` (the overflow `policy` of a bounded observe_on, but for `block`), delivered
  /// in order when `pauser` resumes. A terminal event delivers the buffer first. Under
  /// `fail`, an overflow drops the buffer and the value (each reported) and fails the stream
  /// with `RxError.overflow`. `onDropped` runs, with no lock held, on the thread whose event
  /// made the drop.
  public func pausableBuffered(_ pauser: Observable<Bool>, capacity: Int, policy: FlowPolicy,
                               onDropped: ((Element) -> Void)? = nil) -> Observable<Element>
  {
    PausableProducer(source: self, pauser: pauser, isOn: { $0 },
                     limit: FlowLimit(policy: policy, capacity: capacity, counters: FlowCounters()),
                     onDropped: onDropped)
  }
}

extension Observable where Element == Value {
  /// `pausable` with a pauser of `.bool` values; any other value fails the stream with
  /// `RxError.typeMismatch`.
  public func pausable(_ pauser: Observable<Value>) -> Observable<Value> {
    ValuePausableProducer(source: self, pauser: pauser, isOn: Value.asPauser, limit: nil, onDropped: nil)
  }

  public func pausableBuffered(_ pauser: Observable<Value>, capacity: Int, policy: FlowPolicy,
                               onDropped: ((Value) -> Void)? = nil) -> Observable<Value>
  {
    ValuePausableProducer(source: self, pauser: pauser, isOn: Value.asPauser,
                          limit: FlowLimit(policy: policy, capacity: capacity, counters: FlowCounters()),
                          onDropped: onDropped)
  }
}

extension Value {
  @usableFromInline static func asPauser(_ v: Value) throws -> Bool {
    guard case .bool(let on) = v else { throw RxError.typeMismatch }
    return on
  }
}

/// An observable that may keep flow counters: a bounded observe_on, a buffered pausable
/// (nil for an unbuffered one, which counts nothing).
/// Swift users cast the observable these operators return: `(o as? any FlowCounted)?.flowStats`.
public protocol FlowCounted: AnyObject {
  var flowStats: FlowStats? { get }
}

extension BoundedObserveOn: FlowCounted {
  public var flowCounters: FlowCounters? { counters }
  public var flowStats: FlowStats? { FlowStats(counters) }
}

// rx:value-leaf copy=run
@_spi(RxC) public class PausableProducer<Element, Pauser>: Producer<Element>, FlowCounted {
  let source: Observable<Element>
  let pauser: Observable<Pauser>
  let isOn: (Pauser) throws -> Bool
  /// nil: unbuffered (values while paused are ignored, not counted).
  let limit: FlowLimit?
  let onDropped: ((Element) -> Void)?
  public var counters: FlowCounters { limit?.counters ?? unboundedCounters }
  public var flowCounters: FlowCounters? { limit?.counters }
  public var flowStats: FlowStats? { limit.map { FlowStats($0.counters) } }

  init(source: Observable<Element>, pauser: Observable<Pauser>, isOn: @escaping (Pauser) throws -> Bool,
       limit: FlowLimit?, onDropped: ((Element) -> Void)?)
  {
    self.source = source
    self.pauser = pauser
    self.isOn = isOn
    self.limit = limit
    self.onDropped = onDropped
  }

  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = PausableSink(observer: observer, cancel: cancel, parent: self)
    let subscription = sink.run(source, pauser)
    return (consume sink, subscription)
  }
}

// rx:value-leaf copy=makePauser on next={onSourceNext(at: element)}
/// Source and pauser events are serialized through one Drain, whose handler owns the state.
class PausableSink<Element, Pauser>: Sink<Element, Element> {
  enum Signal {
    case source(Event<Element>)
    case pauser(Event<Pauser>)
  }

  let drain = Drain<Signal>()
  let isOn: (Pauser) throws -> Bool
  let sourceSubscription = SingleAssignmentDisposable()
  let pauserSubscription = SingleAssignmentDisposable()
  var open = false  // drain-owned, as is the buffer
  /// nil: unbuffered.
  var buffer: FlowBuffer<Element>?

  init(observer: Observer<Element>, cancel: any Cancelable, parent: PausableProducer<Element, Pauser>) {
    isOn = parent.isOn
    buffer = parent.limit.map { FlowBuffer(limit: $0, onDropped: parent.onDropped) }
    super.init(observer: observer, cancel: cancel)
  }

  func run(_ source: Observable<Element>, _ pauser: Observable<Pauser>) -> any Disposable {
    // The pauser first: a source that emits while it is subscribed finds the state set.
    pauserSubscription.trySet(pauser.subscribe(makePauser()))
    if !wantsNoMoreEvents { sourceSubscription.trySet(source.subscribe(self)) }
    return BinaryDisposable(sourceSubscription, pauserSubscription)
  }

  /// The observer of the pauser (a hook for the Value leaf).
  func makePauser() -> Observer<Pauser> { PausableOther(parent: self) }

  override func on(_ event: Event<Element>) { submit(.source(event)) }

  final func submit(_ signal: Signal) { drain.submit(signal) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item) } } }

  /// A source element by pointer: handled where it is when the drain is free (copied only
  /// into the drain, or into the buffer while paused).
  final func onSourceNext(at element: UnsafePointer<Element>) {
    @inline(__always) func runInline() { if !isDisposed { next(at: element) } }
    drain.submit(.source(.next(element.pointee)), inline: runInline) {
      [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item) }
    }
  }

  /// A source element (drain-owned): on while open, else buffered (or dropped unbuffered).
  private func next(at element: UnsafePointer<Element>) {
    guard buffer != nil else {
      if open { forwardNext(at: element) }
      return
    }
    buffer!.limit.counters.received.wrappingAdd(1, ordering: .relaxed)
    if open {
      buffer!.limit.counters.delivered.wrappingAdd(1, ordering: .relaxed)
      return forwardNext(at: element)
    }
    if !buffer!.offer(element.pointee) {
      buffer!.dropAll()
      forwardTerminal(.error(RxError.overflow))
    }
  }

  private func handle(_ signal: Signal) {
    if isDisposed { return }
    switch signal {
    case .source(.next(let element)):
      _withUnprotectedUnsafePointer(to: element) { next(at: $0) }
    case .source(let stop):
      flush()
      forwardTerminal(stop)
    case .pauser(.next(let value)):
      do {
        open = try isOn(value)
      } catch {
        flush()
        return forwardTerminal(.error(error))
      }
      if open { flush() }
    case .pauser(.error(let error)):
      flush()
      forwardTerminal(.error(error))
    case .pauser(.completed):
      pauserSubscription.dispose()
    }
  }

  /// Delivers what the buffer holds, in order (a pauser event sent from a callback waits in
  /// the drain until the flush is done).
  private func flush() {
    while !isDisposed, let element = buffer?.take() { forwardNext(owned: element) }
  }
}

// rx:value-leaf on next=copy super=wantsNoMoreEvents
class PausableOther<Element, Pauser>: Observer<Pauser> {
  let parent: PausableSink<Element, Pauser>
  init(parent: PausableSink<Element, Pauser>) { self.parent = parent }
  override func on(_ event: Event<Pauser>) { parent.submit(.pauser(event)) }
  override var wantsNoMoreEvents: Bool { parent.wantsNoMoreEvents }
}
