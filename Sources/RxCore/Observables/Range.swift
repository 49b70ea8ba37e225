/// `count` consecutive integers from `start`, mapped into the element type. Synchronous
/// loop, no trampoline per element (RxSwift schedules each element: 12 allocations each).
@_spi(RxC) open class RangeObservable<Element>: Producer<Element> {
  public let start: Int64
  public let count: Int
  @usableFromInline let make: (Int64) -> Element

  public init(start: Int64, count: Int, make: @escaping (Int64) -> Element) {
    self.start = start
    self.count = count
    self.make = make
  }

  @inlinable open override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    emit(observer, cancel: cancel, make)
  }

  /// The loop, for a subclass that knows `Element` and passes `make` inline (a stored
  /// closure at generic type is called through a reabstraction thunk per element).
  @inlinable public final func emit(_ observer: Observer<Element>, cancel: any Cancelable, _ make: (Int64) -> Element)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = RangeSink(observer: observer, cancel: cancel)
    // `sink.wantsNoMoreEvents` and `forwardNext`, spelled out with `observer` held in a local:
    // through `sink` the compiler retains and releases the sink around every call. By
    // pointer where the observer takes it: no `Event` built and destroyed per element.
    var i: Int64 = 0
    var stop = SynchronousStop()
    if observer.takesNextByPointer {
      while i < Int64(count), !sink.isDisposed, !(stop.mayHaveStopped() && observer.wantsNoMoreEvents) {
        let element = make(start &+ i)
        _withUnprotectedUnsafePointer(to: element) { observer.onNext(at: $0) }
        i += 1
      }
    } else {
      while i < Int64(count), !sink.isDisposed, !(stop.mayHaveStopped() && observer.wantsNoMoreEvents) {
        observer.on(.next(make(start &+ i)))
        i += 1
      }
    }
    sink.forwardTerminal(.completed)
    return (sink, NopDisposable.shared)
  }
}

@_spi(RxC) public final class RangeSink<Element>: Sink<Element, Element> {}

extension Observable where Element == Int64 {
  public static func range(start: Int64, count: Int) -> Observable<Int64> {
    RangeObservable(start: start, count: count, make: { $0 })
  }
}
