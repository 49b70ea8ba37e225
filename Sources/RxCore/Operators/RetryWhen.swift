// rx:value-leaf name=ValueRetryWhenProducer copy=run
/// Resubscribes to the source when a notifier says so (RxSwift's retry(when:)): `handler`,
/// called once per subscription, turns the stream of the source's errors into the notifier.
/// After each error the notifier's next element resubscribes; its completion or error ends
/// the stream (at once when an error waits for it, else at the source's next error, as
/// RxSwift). Elements the notifier emits while no error waits are ignored; a handler that
/// throws fails the stream.
class RetryWhen<Element, Failure, Trigger>: Producer<Element> {
  let source: Observable<Element>
  let handler: (Observable<Failure>) throws -> Observable<Trigger>
  /// Makes the errors stream's elements from the source's errors.
  let pack: (any Error) -> Failure

  init(source: Observable<Element>, handler: @escaping (Observable<Failure>) throws -> Observable<Trigger>,
       pack: @escaping (any Error) -> Failure) {
    self.source = source
    self.handler = handler
    self.pack = pack
  }

  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    start(RetryWhenSink(parent: self, observer: observer, cancel: cancel))
  }
}

enum RetryWhenInput<Element, Trigger> {
  case source(Event<Element>)
  case trigger(Event<Trigger>)
}

// rx:value-leaf copy=makeTriggerObserver on next={onSourceNext(at: element)} super=handle
/// Source and notifier events go through one `Drain`: the state is touched by one thread at a
/// time, and a resubscription made while an error is handled queues the source's synchronous
/// events behind it instead of recursing.
class RetryWhenSink<Element, Failure, Trigger>: Sink<Element, Element>, SelfSubscribingSink {
  let parent: RetryWhen<Element, Failure, Trigger>
  private let drain = Drain<RetryWhenInput<Element, Trigger>>()
  /// The current attempt's subscription.
  private let current = SerialDisposable()
  private let notifierSubscription = SingleAssignmentDisposable()
  private let errors = PublishSubject<Failure>()
  private var waiting = false
  /// The notifier ended while no error waited for it: with this error, or completed. (Two
  /// fields rather than an optional Event, whose nil memcheck reads as uninitialised.)
  private var notifierEnded = false
  private var notifierError: (any Error)?

  init(parent: RetryWhen<Element, Failure, Trigger>, observer: Observer<Element>, cancel: any Cancelable) {
    self.parent = parent
    super.init(observer: observer, cancel: cancel)
  }

  /// Subscribes the notifier, then the source. Final, so that a leaf's call is specialized.
  final func run() -> any Disposable {
    let notifier: Observable<Trigger>
    do { notifier = try parent.handler(errors.asObservable()) } catch {
      forwardTerminal(.error(error))
      return Disposables.create()
    }
    notifierSubscription.trySet(notifier.subscribe(makeTriggerObserver()))
    resubscribe()
    return BinaryDisposable(current, notifierSubscription)
  }

  private final func resubscribe() {
    let subscription = SingleAssignmentDisposable()
    current.set(subscription)  // releases the failed attempt's subscription
    subscription.trySet(parent.source.subscribe(self))
  }

  override func on(_ event: Event<Element>) { submit(.source(event)) }

  /// What the notifier's observer calls.
  final func notify(_ event: Event<Trigger>) { submit(.trigger(event)) }

  /// A source element by pointer: forwarded where it is when the drain is free (what
  /// `handle` does with it), copied into an input only when the drain is held.
  final func onSourceNext(at element: UnsafePointer<Element>) {
    @inline(__always) func runInline() { forwardNext(at: element) }
    drain.submit(.source(.next(element.pointee)), inline: runInline) { [me = Unmanaged.passUnretained(self)] item in
      me._withUnsafeGuaranteedRef { if !$0.isDisposed { $0.handle(item) } }
    }
  }

  @inline(__always) private final func submit(_ input: RetryWhenInput<Element, Trigger>) {
    drain.submit(input) { [me = Unmanaged.passUnretained(self)] item in me._withUnsafeGuaranteedRef { if !$0.isDisposed { $0.handle(item) } } }
  }

  func handle(_ input: RetryWhenInput<Element, Trigger>) {
    switch input {
    case .source(.next(let element)):
      forwardNext(element)
    case .source(.completed):
      forwardTerminal(.completed)
    case .source(.error(let error)):
      if notifierEnded {
        forwardTerminal(notifierError.map { .error($0) } ?? .completed)
        return
      }
      waiting = true
      errors.on(.next(parent.pack(error)))
    case .trigger(.next):
      if !waiting { return }
      waiting = false
      resubscribe()
    case .trigger(.completed):
      if waiting { forwardTerminal(.completed) } else { notifierEnded = true }
    case .trigger(.error(let error)):
      if waiting {
        forwardTerminal(.error(error))
      } else {
        notifierEnded = true
        notifierError = error
      }
    }
  }

  /// The notifier's observer (a leaf gives its own).
  func makeTriggerObserver() -> Observer<Trigger> { RetryWhenTrigger(parent: self) }
}

// rx:value-leaf on next=copy super=wantsNoMoreEvents
class RetryWhenTrigger<Element, Failure, Trigger>: Observer<Trigger> {
  let parent: RetryWhenSink<Element, Failure, Trigger>
  init(parent: RetryWhenSink<Element, Failure, Trigger>) { self.parent = parent }

  override func on(_ event: Event<Trigger>) { parent.notify(event) }

  override var wantsNoMoreEvents: Bool { parent.wantsNoMoreEvents }
}

extension ObservableType {
  public func retry<Trigger>(when handler: @escaping (Observable<any Error>) throws -> Observable<Trigger>)
    -> Observable<Element>
  {
    RetryWhen(source: asObservable(), handler: handler, pack: { $0 })
  }
}

extension Observable where Element == Value {
  /// `retry(when:)` whose errors stream carries `pack(error)` and whose notifier emits values.
  public func retry(when handler: @escaping (Observable<Value>) throws -> Observable<Value>,
                    pack: @escaping (any Error) -> Value) -> Observable<Value> {
    ValueRetryWhenProducer(source: self, handler: handler, pack: pack)
  }
}
