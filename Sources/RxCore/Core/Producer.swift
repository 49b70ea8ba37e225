/// A cold observable: each subscription gets its own sink from `run`. The `SinkDisposer`
/// returned to the subscriber disposes the sink and its upstream subscription together, even
/// when dispose races with `run` still setting them up.
@_spi(RxC) open class Producer<Element>: Observable<Element> {
  public override init() { super.init() }

  /// Open and inlinable only so that a subclass that knows `Element` can override it with
  /// `super.subscribe` and get it specialized; not for changing what it does.
  @inlinable open override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    SinkDisposer.subscribe { run(observer, cancel: $0) }
  }

  /// Builds the sink for one subscription and subscribes it upstream.
  open func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    preconditionFailure("Producer.run is abstract")
  }
}

/// A sink that subscribes itself upstream (`run()`), built by its producer's `run`.
protocol SelfSubscribingSink: Disposable {
  func run() -> any Disposable
}

extension Producer {
  /// `run`'s answer for a sink that subscribes itself: the sink and its upstream subscription.
  @inline(__always)
  func start(_ sink: consuming some SelfSubscribingSink) -> (sink: any Disposable, subscription: any Disposable) {
    let subscription = sink.run()
    return (consume sink, subscription)
  }
}
