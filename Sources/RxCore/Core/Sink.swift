import Synchronization

/// One subscription's state for one operator: observes `Input` from upstream and forwards
/// `Output` to `observer`. `forwardOn` drops events once disposed; `dispose` cancels the
/// whole subscription through `cancel` (the SinkDisposer).
@_spi(RxC) open class Sink<Input, Output>: Observer<Input>, Disposable {
  public let observer: Observer<Output>
  public let cancel: any Cancelable
  @usableFromInline let disposedFlag = Atomic<Bool>(false)
  /// The observer takes `.next` by pointer (`Observer.takesNextByPointer`), so `forwardNext`
  /// builds no `Event` and its call needs no reabstraction.
  @usableFromInline let forwardsByPointer: Bool

  public init(observer: Observer<Output>, cancel: any Cancelable) {
    // Asked first: with the arguments not yet stored, the call needs no retains around it.
    self.forwardsByPointer = observer.takesNextByPointer
    self.observer = observer
    self.cancel = cancel
    super.init()
    Resources.increment()
  }

  // @inline(never): swiftc 6.3.1 crashes (SIL ownership verifier, "drop_deinit outside
  // of lifetime") when RxC inlines this deinit with its Atomic field in a release build.
  // Not @_optimize(none): that destroys the Atomic<Bool> through its generic deinit, a
  // runtime type lookup for every sink that dies.
  @inline(never) deinit { Resources.decrement() }

  /// Subscribes this sink to `source`, for a producer's `run` (`UnaryProducer`): what it
  /// returns is the subscription. A sink that keeps more subscriptions than the source's
  /// overrides it and returns them all.
  @inline(__always) func subscribe(to source: Observable<Input>) -> any Disposable { source.subscribe(self) }

  @inlinable public final var isDisposed: Bool { disposedFlag.load(ordering: .acquiring) }

  @inlinable public final func forwardOn(_ event: Event<Output>) {
    if isDisposed { return }
    if forwardsByPointer, case .next(let element) = event {
      return _withUnprotectedUnsafePointer(to: element) { observer.onNext(at: $0) }
    }
    observer.on(event)
  }

  /// `forwardOn(.next(element))`, by pointer where the observer takes it.
  @inlinable @inline(__always) public final func forwardNext(_ element: Output) {
    if isDisposed { return }
    if forwardsByPointer { return _withUnprotectedUnsafePointer(to: element) { observer.onNext(at: $0) } }
    observer.on(.next(element))
  }

  /// `forwardNext` of an element the caller hands over (a fresh result): by pointer where the
  /// observer takes it, else moved into the event (`forwardNext(_:)` copies it there).
  @inlinable @inline(__always) public final func forwardNext(owned element: consuming Output) {
    if isDisposed { return }
    if forwardsByPointer { return _withUnprotectedUnsafePointer(to: element) { observer.onNext(at: $0) } }
    observer.on(.next(element))
  }

  /// `forwardNext` of the element at `element`.
  @inlinable @inline(__always) public final func forwardNext(at element: UnsafePointer<Output>) {
    if isDisposed { return }
    if forwardsByPointer { return observer.onNext(at: element) }
    observer.on(.next(element.pointee))
  }

  /// Forwards a terminal event, then ends the subscription.
  @inlinable public final func forwardTerminal(_ event: Event<Output>) {
    forwardOn(event)
    dispose()
  }

  /// Disposed, or nobody downstream wants more events.
  open override var wantsNoMoreEvents: Bool { isDisposed || observer.wantsNoMoreEvents }

  open override func dropped() {
    if isDisposed { return }
    observer.dropped()
    dispose()
  }

  /// A load and a store, not an exchange (one locked instruction fewer per sink): two
  /// disposes that race may both go on, and that is harmless: `cancel` (the SinkDisposer)
  /// disposes once, and what overrides do after `super.dispose()` runs on every call anyway.
  open func dispose() {
    if disposedFlag.load(ordering: .acquiring) { return }
    disposedFlag.store(true, ordering: .releasing)
    SynchronousStop.noteStop()
    cancel.dispose()
  }
}
