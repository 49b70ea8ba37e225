import CRxcCore

/// A source whose whole subscription is a loop on the subscriber's thread (just, of, range):
/// an operator that knows one (a fused pipeline, flat_map over it) pulls its elements itself,
/// with no subscription, sink or disposer of the source's own (RxJava's synchronous fusion).
///
/// `pull()` yields exactly the elements a subscription would deliver as `.next` events, in
/// order; the puller stops pulling once it is disposed or nobody downstream wants more (as the
/// source's own loop would), and sends the completion itself. Pulling, not a callback per
/// element, so the puller's per-element code inlines into one loop.
public protocol SynchronousSource<Element>: AnyObject {
  associatedtype Element
  associatedtype Elements: IteratorProtocol where Elements.Element == Element
  func pull() -> Elements
}

extension Just: SynchronousSource {
  @inlinable public func pull() -> CollectionOfOne<Element>.Iterator { CollectionOfOne(element).makeIterator() }
}

extension SequenceObservable: SynchronousSource {
  @inlinable public func pull() -> ContiguousArray<Element>.Iterator { elements.makeIterator() }
}

// The Value leaves the C layer and Swift callers of `Observable<Value>` get: fusion recognizes
// them by class (a compare, no conformance lookup).

// rx:hand-leaf: not a leaf: a recycled `just` (per-thread spare) that hands plain elements on fresh.
/// `just` for Value: its subscribe is specialized (a generic class's vtable entry is not).
///
/// Recycled: an operator that lets go of the last reference to one it has run (a fused inner
/// of flat_map, concat_map or switch, the root of a map or filter) keeps it as this thread's
/// spare, and the next `make` on this thread refills it: `flatMap { .just(f($0)) }` then
/// allocates nothing per element.
@_spi(RxC) public final class ValueJust: Just<Value> {
  public override init(_ element: Value) { super.init(element) }
  /// A plain element is handed on as a fresh value of its case: `element` is a var (for
  /// reuse), and copying a var of an enum with a boxed case takes an outlined copy and destroy.
  public override func subscribe(_ observer: Observer<Value>) -> any Disposable {
    if case .boxed = element { return super.subscribe(observer) }
    ValueStage.deliverPlain(element) { observer.deliverNext($0) }
    observer.on(.completed)
    return NopDisposable.shared
  }

  /// A just of `element`: this thread's spare, or a new one.
  public static func make(_ element: Value) -> ValueJust {
    guard let spare = ThreadSpare.take(Int(RXC_SPARE_JUST), as: ValueJust.self) else {
      let just = ValueJust(element)
      ThreadSpare.noteClass(Int(RXC_SPARE_JUST), just)
      return just
    }
    spare.element = element
    return spare
  }

  /// `observable` let go of: kept as this thread's spare if it is a `ValueJust` nothing
  /// else refers to (its element is dropped now: a box must not live on in a spare).
  @inlinable @inline(__always)
  public static func recycle<E>(_ observable: consuming Observable<E>) {
    guard ThreadSpare.isKind(Int(RXC_SPARE_JUST), observable) else { return }
    keepAsSpare(Unmanaged<ValueJust>.fromOpaque(Unmanaged.passRetained(consume observable).toOpaque()).takeRetainedValue())
  }

  @usableFromInline
  static func keepAsSpare(_ just: consuming ValueJust) {
    guard ThreadSpare.isSolelyOwned(just) else { return }
    if case .boxed = just.element { just.element = .none }
    ThreadSpare.keepOrRelease(consume just, Int(RXC_SPARE_JUST))
  }
}

// rx:hand-leaf: not a leaf: `range` of `.int` values made inline, pulled by fused loops.
/// `range` for Value: `.int` elements made inline (no stored closure called per element).
@_spi(RxC) public final class ValueRange: RangeObservable<Value>, SynchronousSource {
  public init(start: Int64, count: Int) { super.init(start: start, count: count, make: { .int($0) }) }

  public override func subscribe(_ observer: Observer<Value>) -> any Disposable { super.subscribe(observer) }

  public override func run(_ observer: Observer<Value>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    emit(observer, cancel: cancel) { .int($0) }
  }

  @inlinable public func pull() -> Elements { Elements(start: start, count: Int64(count)) }

  /// The integers as `.int` values (wrapping past Int64.max, as the range's own loop does).
  public struct Elements: IteratorProtocol {
    @usableFromInline let start: Int64
    @usableFromInline let count: Int64
    @usableFromInline var i: Int64 = 0
    @inlinable init(start: Int64, count: Int64) {
      self.start = start
      self.count = count
    }
    @inlinable public mutating func next() -> Value? {
      if i >= count { return nil }
      defer { i += 1 }
      return .int(start &+ i)
    }
  }
}

extension Observable where Element == Value {
  @_disfavoredOverload public static func just(_ element: Value) -> Observable<Value> { ValueJust.make(element) }
  @_disfavoredOverload public static func range(start: Int64, count: Int) -> Observable<Value> { ValueRange(start: start, count: count) }
}
