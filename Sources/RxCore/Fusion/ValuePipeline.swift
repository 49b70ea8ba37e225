extension Observable where Element == Value {
  /// `map` for Value: a fused stage (see `FusedPipeline`), chosen over the generic overload.
  public func map(_ transform: @escaping (Value) throws -> Value) -> Observable<Value> {
    ValuePipeline(ValueStage(map: transform, filter: nil), source: self)
  }

  /// `filter` for Value: a fused stage (see `FusedPipeline`), chosen over the generic overload.
  public func filter(_ predicate: @escaping (Value) throws -> Bool) -> Observable<Value> {
    ValuePipeline(ValueStage(map: nil, filter: predicate), source: self)
  }
}

/// A Swift closure as a fused stage: exactly one of the two is set. Elements travel as
/// `Value`; a map's result is owned by `held`.
public struct ValueStage: FusedStage {
  @usableFromInline let map: ((Value) throws -> Value)?
  @usableFromInline let filter: ((Value) throws -> Bool)?

  public init(map: ((Value) throws -> Value)?, filter: ((Value) throws -> Bool)?) {
    self.map = map
    self.filter = filter
  }

  @inlinable public static func working(_ element: Value) -> Value { element }

  @inlinable public func apply(_ w: inout Value, _ held: inout Value?) throws -> Bool {
    guard let map else { return try filter.unsafelyUnwrapped(w) }
    let r = try map(w)
    w = r
    held = r
    return true
  }

  // Every result is in `held`, every other element is the input: nothing is delivered as plain.
  @inlinable public static func isPlain(_ w: Value) -> Bool { false }
  @inlinable public static func deliverPlain(_ w: Value, _ deliver: (consuming Value) -> Void) { deliver(w) }
}

// Specialized for Value (see Value): the overrides inline the generic bodies.
final class ValuePipeline: FusedPipeline<ValueStage> {
  init(_ stage: ValueStage, source: Observable<Value>) {
    super.init(stage)
    setRoot(source)
  }

  override func subscribe(_ observer: Observer<Value>) -> any Disposable { subscribeFused(observer) }

  override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    start(ValuePipelineSink(self, observer: observer, cancel: cancel))
  }
}

final class ValuePipelineSink: FusedPipelineSink<ValueStage> {
  override func on(_ event: Event<Value>) { handle(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { handleNext(element.pointee) }
}
