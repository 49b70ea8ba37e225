extension Observable {
  /// The elements of each source in turn: the next is subscribed after the previous one
  /// completed. Completes after the last one (at once for none).
  public static func concat(_ sources: [Observable<Element>]) -> Observable<Element> {
    SequenceObservable(ContiguousArray(sources)).concatMap { $0 }
  }

  // rx:value-overload
  /// This sequence, then `other`.
  public func concat(_ other: Observable<Element>) -> Observable<Element> {
    Observable.concat([self, other])
  }
}

extension Observable where Element == Value {
  public static func concat(_ sources: [Observable<Value>]) -> Observable<Value> {
    ValueConcatProducer(source: ValueConcatSources(ContiguousArray(sources)), InnerSelector(select: { $0 }))
  }

}

// rx:hand-leaf: selects each source as it is and fuses Value inners (`runFusedValue`): not the generic body.
final class ValueConcatSink: ConcatMapSink<Observable<Value>, Value> {
  override func on(_ event: Event<Observable<Value>>) { super.on(event) }
  override func makeInner() -> ConcatMapInner<Observable<Value>, Value> { ValueConcatInner(parent: self) }
  override func select(at element: UnsafePointer<Observable<Value>>) throws -> Selected { .observable(element.pointee) }
  override func runFused(_ inner: Observable<Value>, arriving: Bool) -> Bool { runFusedValue(inner, arriving: arriving) }
}
