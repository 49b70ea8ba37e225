/// A cold observable: each subscription gets its own sink from `run`. The `SinkDisposer`
/// returned to the subscriber disposes the sink and its upstream subscription together, even
/// when dispose races with `run` still setting them up.
open class Producer<Element>: Observable<Element> {
  public override init() { super.init() }

  /// Open and inlinable only so that a subclass that knows `Element` can override it with
  /// `super.subscribe` and get it specialized; not for changing what it does.
  @inlinable open override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    // The disposer moved into the existential `run` borrows, and reached unretained besides:
    // converting a disposer kept aside would cost a retain and release of it per subscribe.
    let made = SinkDisposer.make()
    let disposer = Unmanaged.passUnretained(made)
    let cancel: any Cancelable = consume made
    let (sink, subscription) = run(observer, cancel: cancel)
    disposer._withUnsafeGuaranteedRef {
      $0.setSinkAndSubscription(sink: consume sink, subscription: consume subscription)  // moved: no retain/release pair
    }
    return cancel
  }

  /// Builds the sink for one subscription and subscribes it upstream.
  open func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    preconditionFailure("Producer.run is abstract")
  }
}
