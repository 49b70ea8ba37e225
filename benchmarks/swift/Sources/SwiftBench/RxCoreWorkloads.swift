import Dispatch
import RxCore

/// The end of a subscription made directly on the core: sums what it sees into `s`. A user's
/// `ObserverType` (`subscribe(_:)` hands it `.next` by pointer).
final class SumObserver: ObserverType {
  let s: Sum
  init(_ s: Sum) { self.s = s }
  func on(_ event: Event<Value>) {
    switch event {
    case .next(let v): s.sum &+= iv(v)
    case .error: break
    case .completed: s.completed += 1
    }
  }
}

/// `SumObserver` as the core's own observer class, for W4, W5, W7 and W9, which measure the
/// subscription itself: `subscribe(_:)` would add its wrapper object to each (see
/// `CountSubscription` in RxCoreCatalog.swift).
final class SumSubscription: Observer<Value> {
  let s: Sum
  init(_ s: Sum) { self.s = s }
  override func on(_ event: Event<Value>) {
    switch event {
    case .next(let v): s.sum &+= iv(v)
    case .error: break
    case .completed: s.completed += 1
    }
  }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<Value>) { s.sum &+= iv(element.pointee) }
}

/// The workloads on RxCore, librxc's Swift core, without the C ABI, on `Observable<Value>`
/// and `PublishSubject<Value>`/`ReplaySubject<Value>`: the element type the core is
/// specialized and fused for (what the C layer uses, and what a Swift caller uses for the
/// same speed; an Int64 chain or subject runs the generic classes, unspecialized). run.sh passes
/// -DRXCORE_SUBJECTS / _OPERATORS / _OBSERVE_ON / _REPLAY when the core has those parts;
/// without one, its workloads print "n/a".
enum RxCoreBench {
  #if RXCORE_SUBJECTS
  static let w1: Body? = { n, m in
    let s = Sum()
    let subject = PublishSubject<Value>()
    let d = subject.subscribe(SumObserver(s))
    m.begin()
    for i in 0..<Int64(n) { subject.on(.next(.int(i))) }
    m.end()
    d.dispose()
    check("RxCore W1 sum", s.sum, sumRange(n))
  }

  static let w2: Body? = { n, m in
    let events = n / 100
    let sums = (0..<100).map { _ in Sum() }
    let subject = PublishSubject<Value>()
    let ds = sums.map { subject.subscribe(SumObserver($0)) }
    m.begin()
    for i in 0..<Int64(events) { subject.on(.next(.int(i))) }
    m.end()
    ds.forEach { $0.dispose() }
    for s in sums { check("RxCore W2 sum", s.sum, sumRange(events)) }
  }

  // One observer subscribed n times, as the C workload subscribes one rx_observer.
  static let w4: Body? = { n, m in
    let s = Sum()
    let subject = PublishSubject<Value>()
    let observer = SumSubscription(s)
    m.begin()
    for _ in 0..<n { subject.subscribe(observer).dispose() }
    m.end()
    subject.on(.next(.int(1)))
    check("RxCore W4 sum", s.sum, 0)
  }

  static let w9: Body? = { n, m in
    let s = Sum()
    var ds: [any Disposable] = []
    ds.reserveCapacity(n)
    let subject = PublishSubject<Value>()
    let before = heapInUse()
    m.begin()
    for _ in 0..<n { ds.append(subject.subscribe(SumSubscription(s))) }
    m.end()
    m.bytesPerUnit = Double(heapInUse() - before) / Double(n)
    subject.on(.next(.int(1)))
    ds.forEach { $0.dispose() }
    check("RxCore W9 sum", s.sum, Int64(n))
  }
  #else
  static let w1: Body? = nil, w2: Body? = nil, w4: Body? = nil, w9: Body? = nil
  #endif

  #if RXCORE_OPERATORS
  static let w3: Body? = { n, m in
    let s = SumValue()
    let o = Observable<Value>.range(start: 0, count: n)
      .map { .int(iv($0) + 1) }.filter { iv($0) & 1 == 0 }.map { .int(iv($0) * 2) }
    m.begin()
    let d = o.subscribe(s)
    m.end()
    d.dispose()
    check("RxCore W3 sum", s.sum, w3Expected(n))
  }

  static let w5: Body? = { n, m in
    let s = Sum(), observer = SumSubscription(s)
    m.begin()
    for i in 0..<Int64(n) {
      _ = Observable<Value>.just(.int(i)).map { .int(iv($0) + 1) }.subscribe(observer)
    }
    m.end()
    check("RxCore W5 sum", s.sum, sumRange(n) + Int64(n))
    check("RxCore W5 completed", s.completed, Int64(n))
  }

  static let w8: Body? = { n, m in
    let s = SumValue()
    let o = Observable<Value>.range(start: 0, count: n).flatMap { Observable<Value>.just($0) }
    m.begin()
    let d = o.subscribe(s)
    m.end()
    d.dispose()
    check("RxCore W8 sum", s.sum, sumRange(n))
  }
  #else
  static let w3: Body? = nil, w5: Body? = nil, w8: Body? = nil
  #endif

  #if RXCORE_SUBJECTS && RXCORE_OBSERVE_ON
  static let w6: Body? = { n, m in
    let s = Sum()
    let done = DispatchSemaphore(value: 0)
    final class Signal: ObserverType {
      let inner: SumObserver, done: DispatchSemaphore
      init(_ inner: SumObserver, _ done: DispatchSemaphore) { self.inner = inner; self.done = done }
      func on(_ event: Event<Value>) {
        inner.on(event)
        if event.isStopEvent { done.signal() }
      }
    }
    let subject = PublishSubject<Value>()
    let d = subject.observe(on: SerialQueueScheduler(label: "bench.w6"))
      .subscribe(Signal(SumObserver(s), done))
    m.begin()
    for i in 0..<Int64(n) { subject.on(.next(.int(i))) }
    subject.on(.completed)
    done.wait()
    m.end()
    d.dispose()
    check("RxCore W6 sum", s.sum, sumRange(n))
  }
  #else
  static let w6: Body? = nil
  #endif

  #if RXCORE_SUBJECTS && RXCORE_REPLAY
  static let w7: Body? = { n, m in
    let s = Sum()
    let subject = ReplaySubject<Value>.create(bufferSize: 100)
    for i in 0..<Int64(100) { subject.on(.next(.int(i))) }
    m.begin()
    for _ in 0..<(n / 100) { subject.subscribe(SumSubscription(s)).dispose() }
    m.end()
    check("RxCore W7 sum", s.sum, Int64(n / 100) * sumRange(100))
  }
  #else
  static let w7: Body? = nil
  #endif
}
