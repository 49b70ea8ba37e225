/// A source whose whole subscription is a loop on the subscriber's thread (just, of, range):
/// an operator that knows one (a fused pipeline, flat_map over it) runs the loop itself, with
/// no subscription, sink or disposer of the source's own.
///
/// `forEach` must deliver exactly what a subscription would as `.next` events, in order, and
/// stop as soon as `body` returns false (the caller was disposed, or nobody downstream wants
/// more). The completion that follows the loop is the caller's to send.
public protocol SynchronousSource<Element>: AnyObject {
  associatedtype Element
  func forEach(_ body: (Element) throws -> Bool) rethrows
}

extension Just: SynchronousSource {
  @inlinable public func forEach(_ body: (Element) throws -> Bool) rethrows { _ = try body(element) }
}

extension SequenceObservable: SynchronousSource {
  @inlinable public func forEach(_ body: (Element) throws -> Bool) rethrows {
    for element in elements {
      if try !body(element) { return }
    }
  }
}

// The Value leaves the C layer and Swift callers of `Observable<Value>` get: fusion recognizes
// them by class (a compare, no conformance lookup).

/// `just` for Value: its subscribe is specialized (a generic class's vtable entry is not).
public final class ValueJust: Just<Value> {
  public override init(_ element: Value) { super.init(element) }
  public override func subscribe(_ observer: Observer<Value>) -> any Disposable { super.subscribe(observer) }
}

/// `range` for Value: `.int` elements made inline (no stored closure called per element).
public final class ValueRange: RangeObservable<Value>, SynchronousSource {
  public init(start: Int64, count: Int) { super.init(start: start, count: count, make: { .int($0) }) }

  public override func subscribe(_ observer: Observer<Value>) -> any Disposable { super.subscribe(observer) }

  public override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    emit(observer, cancel: cancel) { .int($0) }
  }

  @inlinable public func forEach(_ body: (Value) throws -> Bool) rethrows {
    var i: Int64 = 0
    while i < Int64(count) {
      let element = Value.int(start &+ i)
      i += 1
      if try !body(element) { return }
    }
  }
}

extension Observable where Element == Value {
  public static func just(_ element: Value) -> Observable<Value> { ValueJust(element) }
  public static func range(start: Int64, count: Int) -> Observable<Value> { ValueRange(start: start, count: count) }
}
