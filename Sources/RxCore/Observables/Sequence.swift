/// Emits the elements of an array in order, then completes. Synchronous, but it stops as
/// soon as the subscription is disposed (even from inside an observer callback).
public final class SequenceObservable<Element>: Producer<Element> {
  let elements: ContiguousArray<Element>
  public init(_ elements: ContiguousArray<Element>) { self.elements = elements }

  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = SequenceSink(observer: observer, cancel: cancel)
    for element in elements {
      if sink.wantsNoMoreEvents { break }
      sink.forwardOn(.next(element))
    }
    sink.forwardTerminal(.completed)
    return (sink, NopDisposable.shared)
  }
}

final class SequenceSink<Element>: Sink<Element, Element> {}

extension Observable {
  public static func of(_ elements: Element...) -> Observable<Element> {
    SequenceObservable(ContiguousArray(elements))
  }
  public static func from(_ elements: [Element]) -> Observable<Element> {
    SequenceObservable(ContiguousArray(elements))
  }
}
