// rx:value-leaf copy=run
/// Emits the source's latest value each time `sampler` ticks, if a new one arrived since the
/// last tick (RxSwift's sample). The source completing ends the output at the next tick;
/// the sampler completing emits a last sample. Both inputs go through one Drain.
class Sample<Element, SamplerElement>: Producer<Element> {
  let source: Observable<Element>
  let sampler: Observable<SamplerElement>

  public init(source: Observable<Element>, sampler: Observable<SamplerElement>) {
    self.source = source
    self.sampler = sampler
  }

  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = SampleSink<Element>(observer: observer, cancel: cancel)
    let samplerSubscription = sampler.subscribe(SamplerObserver<Element, SamplerElement>(sink))
    sink.sourceSubscription.setDisposable(source.subscribe(sink))
    let subscription = BinaryDisposable(sink.sourceSubscription, samplerSubscription)
    return (consume sink, subscription)
  }
}

// rx:value-leaf on next={onSourceNext(at: element)}
class SampleSink<Element>: Sink<Element, Element> {
  enum Input { case source(Event<Element>), tick, samplerError(any Error) }
  let sourceSubscription = SingleAssignmentDisposable()
  private let drain = Drain<Input>()
  private var element: Element?
  private var atEnd = false

  // Inline when the drain is free: the event is handled where it is, not copied into an input.
  override func on(_ event: Event<Element>) {
    @inline(__always) func runInline() { handleSource(event) }
    drain.submit(.source(event), inline: runInline) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item) } }
  }

  final func submit(_ input: Input) { drain.submit(input) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item) } } }

  /// A source element by pointer: kept as the one to sample, copied straight from where
  /// it is when the drain is free (no event built).
  final func onSourceNext(at element: UnsafePointer<Element>) {
    @inline(__always) func runInline() { if !isDisposed { self.element = element.pointee } }
    drain.submit(.source(.next(element.pointee)), inline: runInline) {
      [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { $0.handle(item) }
    }
  }

  private func handleSource(_ event: Event<Element>) {
    if isDisposed { return }
    switch event {
    case .next(let value):
      element = value
    case .error(let error):
      forwardTerminal(.error(error))
    case .completed:
      atEnd = true
      sourceSubscription.dispose()
    }
  }

  private func handle(_ input: Input) {
    if isDisposed { return }
    switch input {
    case .source(let event):
      handleSource(event)
    case .tick:
      if let value = element.take() { forwardNext(owned: value) }  // moved out, not copied
      if atEnd { forwardTerminal(.completed) }
    case .samplerError(let error):
      forwardTerminal(.error(error))
    }
  }
}

// rx:value-leaf on next={sink.submit(.tick)} super=dropped
class SamplerObserver<Element, SamplerElement>: Observer<SamplerElement> {
  let sink: SampleSink<Element>
  init(_ sink: SampleSink<Element>) { self.sink = sink }

  override func on(_ event: Event<SamplerElement>) {
    switch event {
    case .next, .completed: sink.submit(.tick)
    case .error(let error): sink.submit(.samplerError(error))
    }
  }

  override func dropped() { sink.dropped() }
}

extension ObservableType {
  // rx:value-overload
  public func sample<S>(_ sampler: Observable<S>) -> Observable<Element> {
    Sample(source: asObservable(), sampler: sampler)
  }
}
