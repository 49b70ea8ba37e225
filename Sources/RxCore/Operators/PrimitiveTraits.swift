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
  // rx:value-overload
  public func asSingle() -> Observable<Element> { PrimitiveTraitProducer(source: self, .single) }
  // rx:value-overload
  public func asMaybe() -> Observable<Element> { PrimitiveTraitProducer(source: self, .maybe) }
  // rx:value-overload
  public func asCompletable() -> Observable<Element> { PrimitiveTraitProducer(source: self, .completable) }
}

// rx:value-leaf copy=makeSink super=run
class PrimitiveTraitProducer<Element>: UnaryProducer<Element, Element, PrimitiveTrait> {
  override func makeSink(_ observer: Observer<Element>, cancel: any Cancelable) -> Sink<Element, Element> {
    PrimitiveTraitSink<Element>(trait: parameter, observer: observer, cancel: cancel)
  }
}

// rx:value-leaf on next=copy
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
