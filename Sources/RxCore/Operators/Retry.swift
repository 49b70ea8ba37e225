import Synchronization

extension Observable {
  // rx:value-overload
  /// Resubscribes after an error, up to `maxAttempts` subscriptions in all (the first one
  /// included); the last attempt's error is forwarded. `maxAttempts == 0` retries forever.
  public func retry(_ maxAttempts: Int = 0) -> Observable<Element> {
    RetryProducer(source: self, Swift.max(maxAttempts, 0))
  }
}

// rx:value-leaf copy=makeSink super=run
/// The parameter is the number of subscriptions in all (0: no limit).
class RetryProducer<Element>: UnaryProducer<Element, Element, Int> {
  override func makeSink(_ observer: Observer<Element>, cancel: any Cancelable) -> Sink<Element, Element> {
    RetrySink(parent: self, observer: observer, cancel: cancel)
  }
}

// rx:value-leaf on next=forward
/// Resubscription goes through a Drain used as a trampoline: a source that fails while
/// being subscribed queues the next attempt instead of recursing, so many synchronous
/// failures cost a loop, not stack depth.
class RetrySink<Element>: Sink<Element, Element> {
  let parent: RetryProducer<Element>
  let subscription = SerialDisposable()
  let trampoline = Drain<Void>()
  let attempts = Atomic<Int>(0)

  init(parent: RetryProducer<Element>, observer: Observer<Element>, cancel: any Cancelable) {
    self.parent = parent
    super.init(observer: observer, cancel: cancel)
  }

  /// The first attempt; each one subscribes to the producer's source (`source`).
  final override func subscribe(to source: Observable<Element>) -> any Disposable {
    resubscribe()
    return subscription
  }

  private func resubscribe() {
    trampoline.submit(()) { _ in
      if self.wantsNoMoreEvents { return }
      self.attempts.add(1, ordering: .acquiringAndReleasing)
      let current = SingleAssignmentDisposable()
      self.subscription.set(current)
      current.trySet(self.parent.source.subscribe(self))
    }
  }

  /// `.next` goes on unchanged: the `Value` leaf forwards it by pointer (`forwardNext(at:)`)
  /// without this body, so keep the two in step.
  override func on(_ event: Event<Element>) {
    if isDisposed { return }
    switch event {
    case .next: forwardOn(event)
    case .completed: forwardTerminal(event)
    case .error:
      let max = parent.parameter
      if max != 0 && attempts.load(ordering: .acquiring) >= max {
        forwardTerminal(event)
      } else {
        resubscribe()
      }
    }
  }

  /// Elements go on unchanged: a subject hands them to the downstream observer directly
  /// (see `PassThroughSink`); an attempt's subscription goes with this sink's dispose.
  override var nextTarget: Unmanaged<Observer<Element>> { .passUnretained(observer) }
}
