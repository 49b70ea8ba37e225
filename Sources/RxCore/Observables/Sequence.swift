// rx:value-leaf name=ValueConcatSources args=Observable<Value> super=run
/// Emits the elements of an array in order, then completes. Synchronous, but it stops as
/// soon as the subscription is disposed (even from inside an observer callback).
@_spi(RxC) public class SequenceObservable<Element>: Producer<Element> {
  @usableFromInline let elements: ContiguousArray<Element>
  public init(_ elements: ContiguousArray<Element>) { self.elements = elements }

  public override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = SequenceSink(observer: observer, cancel: cancel)
    // Each element handed on where it is (no copy, no Event): the array is this producer's
    // `let`, and the subscriber holds the producer for the call.
    elements.withUnsafeBufferPointer { buffer in
      guard var p = buffer.baseAddress else { return }
      var stop = SynchronousStop()
      for _ in 0..<buffer.count {
        if sink.wantsNoMoreEvents(&stop) { break }
        sink.forwardNext(at: p)
        p += 1
      }
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

extension Observable where Element == Value {
  public static func of(_ elements: Value...) -> Observable<Value> {
    ValueSequenceObservable(ContiguousArray(elements))
  }
  public static func from(_ elements: [Value]) -> Observable<Value> {
    ValueSequenceObservable(ContiguousArray(elements))
  }
  public static func from(_ elements: ContiguousArray<Value>) -> Observable<Value> {
    ValueSequenceObservable(elements)
  }
}

// rx:hand-leaf: @usableFromInline (inlinable code names it); the generator writes internal leaves.
// Specialized for Value (see Value): a concat_map or flat_map over `of` subscribes one per
// element, and the generic `run` would look up types each time.
@_spi(RxC) public final class ValueSequenceObservable: SequenceObservable<Value> {
  public override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    super.run(observer, cancel: cancel)
  }
}
