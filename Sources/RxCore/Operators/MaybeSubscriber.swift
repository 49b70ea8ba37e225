/// What a Maybe's subscriber is given (`subscribe(onSuccess:onError:onCompleted:)`): one
/// handler per outcome, plus the end of the subscription. `Success` and `Failure` are what
/// the handlers take: an embedding layer passes its own forms of an element and an error.
@_spi(RxC) public protocol MaybeHandlers {
  associatedtype Success
  associatedtype Failure
  func success(_ value: Success)
  func completed()
  func failed(_ error: Failure)
  func disposed()
}

/// Maybe's rule for its subscriber: a success or a completion, never both. `asMaybe` emits
/// its element with the completion; after a success that completion is not passed on.
/// Events of one subscription never overlap, so `succeeded` needs no lock.
@_spi(RxC) public final class MaybeSubscriber<Handlers: MaybeHandlers> {
  public let handlers: Handlers
  @usableFromInline var succeeded = false

  @inlinable public init(_ handlers: Handlers) { self.handlers = handlers }

  @inlinable public func success(_ value: Handlers.Success) {
    succeeded = true
    handlers.success(value)
  }

  @inlinable public func completed() { if !succeeded { handlers.completed() } }

  @inlinable public func failed(_ error: Handlers.Failure) { handlers.failed(error) }

  @inlinable public func disposed() { handlers.disposed() }
}
