#if canImport(OpenCombine)
import Dispatch
import Glibc
import OpenCombine
import OpenCombineDispatch

/// The workloads on OpenCombine 0.14.0. Combine has no replay subject, so W7 is n/a.
enum OpenCombineBench {
  static func w1(_ n: Int, _ m: inout Measure) {
    let s = Sum()
    let subject = PassthroughSubject<Int64, Never>()
    let c = subject.sink { s.sum += $0 }
    m.begin()
    for i in 0..<Int64(n) { subject.send(i) }
    m.end()
    c.cancel()
    check("OpenCombine W1 sum", s.sum, sumRange(n))
  }

  static func w2(_ n: Int, _ m: inout Measure) {
    let events = n / 100
    let sums = (0..<100).map { _ in Sum() }
    let subject = PassthroughSubject<Int64, Never>()
    let cs = sums.map { s in subject.sink { s.sum += $0 } }
    m.begin()
    for i in 0..<Int64(events) { subject.send(i) }
    m.end()
    cs.forEach { $0.cancel() }
    for s in sums { check("OpenCombine W2 sum", s.sum, sumRange(events)) }
  }

  static func w3(_ n: Int, _ m: inout Measure) {
    let s = Sum()
    m.begin()
    let c = (0..<Int64(n)).publisher
      .map { $0 + 1 }.filter { $0 & 1 == 0 }.map { $0 * 2 }
      .sink { s.sum += $0 }
    m.end()
    c.cancel()
    check("OpenCombine W3 sum", s.sum, w3Expected(n))
  }

  static func w4(_ n: Int, _ m: inout Measure) {
    let s = Sum()
    let subject = PassthroughSubject<Int64, Never>()
    m.begin()
    for _ in 0..<n { subject.sink { s.sum += $0 }.cancel() }
    m.end()
    subject.send(1)
    check("OpenCombine W4 sum", s.sum, 0)
  }

  static func w5(_ n: Int, _ m: inout Measure) {
    let s = Sum()
    m.begin()
    for i in 0..<Int64(n) {
      _ = Just(i).map { $0 + 1 }.sink(receiveCompletion: { _ in s.completed += 1 },
                                      receiveValue: { s.sum += $0 })
    }
    m.end()
    check("OpenCombine W5 sum", s.sum, sumRange(n) + Int64(n))
    check("OpenCombine W5 completed", s.completed, Int64(n))
  }

  static func w6(_ n: Int, _ m: inout Measure) {
    let s = Sum()
    let done = DispatchSemaphore(value: 0)
    let queue = DispatchQueue(label: "bench.w6")
    let subject = PassthroughSubject<Int64, Never>()
    let c = subject.receive(on: queue.ocombine)
      .sink(receiveCompletion: { _ in done.signal() }, receiveValue: { s.sum += $0 })
    m.begin()
    for i in 0..<Int64(n) { subject.send(i) }
    subject.send(completion: .finished)
    done.wait()
    m.end()
    c.cancel()
    check("OpenCombine W6 sum", s.sum, sumRange(n))
  }

  static func w8(_ n: Int, _ m: inout Measure) {
    let s = Sum()
    m.begin()
    let c = (0..<Int64(n)).publisher.flatMap { Just($0) }.sink { s.sum += $0 }
    m.end()
    c.cancel()
    check("OpenCombine W8 sum", s.sum, sumRange(n))
  }

  static func w9(_ n: Int, _ m: inout Measure) {
    let s = Sum()
    var cs: [AnyCancellable] = []
    cs.reserveCapacity(n)
    let subject = PassthroughSubject<Int64, Never>()
    let before = heapInUse()
    m.begin()
    for _ in 0..<n { cs.append(subject.sink { s.sum += $0 }) }
    m.end()
    m.bytesPerUnit = Double(heapInUse() - before) / Double(n)
    subject.send(1)
    cs.forEach { $0.cancel() }
    check("OpenCombine W9 sum", s.sum, Int64(n))
  }
}
#else
enum OpenCombineBench {
  static let w1: Body? = nil, w2: Body? = nil, w3: Body? = nil, w4: Body? = nil, w5: Body? = nil, w6: Body? = nil,
    w8: Body? = nil, w9: Body? = nil
}
#endif
