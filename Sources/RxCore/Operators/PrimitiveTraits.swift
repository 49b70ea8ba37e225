/// RxSwift's primitive-sequence traits (Single, Maybe, Completable) as runtime contracts on
/// an `Observable`: the result forwards what the trait's grammar allows and fails with the
/// violation otherwise.
///  - single: exactly one element, emitted with the completion; none is
///    `RxError.noElements`, a second one `RxError.moreThanOneElement` at once.
///  - maybe: at most one element, emitted with the completion; a second one is
///    `RxError.moreThanOneElement` at once.
///  - completable: no element; one is `RxError.unexpectedElement` at once.
public enum PrimitiveTrait: Sendable {
  case single, maybe, completable
}

extension Observable {
  public func asSingle() -> Observable<Element> { PrimitiveTraitProducer(source: self, trait: .single) }
  public func asMaybe() -> Observable<Element> { PrimitiveTraitProducer(source: self, trait: .maybe) }
  public func asCompletable() -> Observable<Element> { PrimitiveTraitProducer(source: self, trait: .completable) }
}

extension Observable where Element == Value {
  public func asSingle() -> Observable<Value> { ValuePrimitiveTraitProducer(source: self, trait: .single) }
  public func asMaybe() -> Observable<Value> { ValuePrimitiveTraitProducer(source: self, trait: .maybe) }
  public func asCompletable() -> Observable<Value> { ValuePrimitiveTraitProducer(source: self, trait: .completable) }
}

class PrimitiveTraitProducer<Element>: Producer<Element> {
  let source: Observable<Element>
  let trait: PrimitiveTrait
  init(source: Observable<Element>, trait: PrimitiveTrait) {
    self.source = source
    self.trait = trait
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = PrimitiveTraitSink<Element>(trait: trait, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

class PrimitiveTraitSink<Element>: Sink<Element, Element> {
  let trait: PrimitiveTrait
  var element: Element?

  init(trait: PrimitiveTrait, observer: Observer<Element>, cancel: any Cancelable) {
    self.trait = trait
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) {
    switch event {
    case .next(let value):
      if trait == .completable {
        forwardTerminal(.error(RxError.unexpectedElement))
      } else if element != nil {
        element = nil
        forwardTerminal(.error(RxError.moreThanOneElement))
      } else {
        element = value
      }
    case .error:
      element = nil
      forwardTerminal(event)
    case .completed:
      // Held until completion, as RxSwift's asSingle/asMaybe: only then is it known to be
      // the only one.
      if let value = element.take() {
        forwardNext(owned: value)
        forwardTerminal(.completed)
      } else {
        forwardTerminal(trait == .single ? .error(RxError.noElements) : .completed)
      }
    }
  }
}

// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValuePrimitiveTraitProducer: PrimitiveTraitProducer<Value> {
  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = ValuePrimitiveTraitSink(trait: trait, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

final class ValuePrimitiveTraitSink: PrimitiveTraitSink<Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { super.on(.next(Value.copy(at: element))) }
}
