/// The `Observer` behind the public `subscribe(_:)`: holds the user's `ObserverType` and a
/// function that hands it one element by pointer. That function is made where the types are
/// concrete (`subscribe` is inlinable) and captures nothing, so it allocates nothing; this
/// generic class's own methods, which run unspecialized, only pass addresses on and never
/// look up the metadata of `Event<Element>`.
@usableFromInline final class ObserverAdapter<O: ObserverType>: Observer<O.Element> {
  @usableFromInline let observer: O
  @usableFromInline let next: (O, UnsafePointer<O.Element>) -> Void

  @inlinable init(_ observer: O, next: @escaping (O, UnsafePointer<O.Element>) -> Void) {
    self.observer = observer
    self.next = next
    super.init()
  }

  @usableFromInline override func on(_ event: Event<O.Element>) { observer.on(event) }
  @usableFromInline override var takesNextByPointer: Bool { true }
  @usableFromInline override func onNext(at element: UnsafePointer<O.Element>) { next(observer, element) }
}

/// The observer of `subscribe(onNext:onError:onCompleted:onDisposed:)`.
@usableFromInline struct ClosureObserver<Element>: ObserverType {
  @usableFromInline let onNext: ((Element) -> Void)?
  @usableFromInline let onError: ((any Error) -> Void)?
  @usableFromInline let onCompleted: (() -> Void)?
  /// Runs `onDisposed`; disposed after a terminal event too.
  @usableFromInline let ended: (any Disposable)?

  @inlinable init(onNext: ((Element) -> Void)?, onError: ((any Error) -> Void)?,
                  onCompleted: (() -> Void)?, ended: (any Disposable)?) {
    self.onNext = onNext
    self.onError = onError
    self.onCompleted = onCompleted
    self.ended = ended
  }

  @inlinable func on(_ event: Event<Element>) {
    switch event {
    case .next(let element): onNext?(element)
    case .error(let error):
      onError?(error)
      ended?.dispose()
    case .completed:
      onCompleted?()
      ended?.dispose()
    }
  }
}
