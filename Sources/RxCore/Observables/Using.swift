// rx:value-leaf copy=run
/// RxSwift's using: each subscription creates a resource, subscribes to the observable made
/// from it, and disposes the resource when the subscription ends (a terminal event, after
/// it is delivered, or a dispose), after the source's subscription. A factory's thrown
/// error fails that subscription; a resource already made is disposed then too.
class UsingObservable<Element>: Producer<Element> {
  let resourceFactory: () throws -> any Disposable
  let observableFactory: (any Disposable) throws -> Observable<Element>

  public init(
    resourceFactory: @escaping () throws -> any Disposable,
    observableFactory: @escaping (any Disposable) throws -> Observable<Element>
  ) {
    self.resourceFactory = resourceFactory
    self.observableFactory = observableFactory
  }

  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = UsingSink(observer: observer, cancel: cancel)
    let subscription = sink.run(self)
    return (consume sink, subscription)
  }
}

// rx:value-leaf on next=forward
class UsingSink<Element>: Sink<Element, Element> {
  /// Subscribes; returns what ends the subscription: the source's subscription, then the
  /// resource.
  final func run(_ parent: UsingObservable<Element>) -> any Disposable {
    let resource: any Disposable
    do { resource = try parent.resourceFactory() } catch {
      forwardTerminal(.error(error))
      return NopDisposable.shared
    }
    let source: Observable<Element>
    do { source = try parent.observableFactory(resource) } catch {
      forwardTerminal(.error(error))
      return resource
    }
    return BinaryDisposable(source.subscribe(self), resource)
  }

  /// `.next` goes on unchanged: the `Value` leaf forwards it by pointer (`forwardNext(at:)`)
  /// without this body, so keep the two in step.
  override func on(_ event: Event<Element>) {
    if event.isStopEvent { forwardTerminal(event) } else { forwardOn(event) }
  }
}

extension Observable {
  public static func using<Resource: Disposable>(
    _ resourceFactory: @escaping () throws -> Resource,
    observableFactory: @escaping (Resource) throws -> Observable<Element>
  ) -> Observable<Element> {
    UsingObservable(resourceFactory: resourceFactory, observableFactory: { try observableFactory($0 as! Resource) })
  }
}

extension Observable where Element == Value {
  /// `using` with the resource as any Disposable (the C layer's factories share one
  /// resource class, so the generic form's cast is not needed).
  public static func using(
    resource resourceFactory: @escaping () throws -> any Disposable,
    observableFactory: @escaping (any Disposable) throws -> Observable<Value>
  ) -> Observable<Value> {
    ValueUsingObservable(resourceFactory: resourceFactory, observableFactory: observableFactory)
  }
}
