import CBenchSupport
import Glibc

/// The catalog of `make bench`: the workloads of Tests/perf/workloads.c, under the same names
/// and in the same shapes, on RxCore (`Observable<Value>`), OpenCombine and RxSwift (Int64
/// payloads). A body runs n events and returns how many events (values and terminal events)
/// its subscriber received.
typealias CatalogBody = (Int) -> Int

struct CatalogImpl {
  let name: String
  var bodies: [String: CatalogBody]
  /// Why a workload is n/a for this implementation.
  var missing: [String: String] = [:]
}

/// ns per event of one run of n events.
private func timeOne(_ name: String, _ impl: String, _ body: CatalogBody, _ n: Int) -> Double {
  let t0 = nowNs()
  let delivered = body(n)
  let ns = Double(nowNs() - t0) / Double(n)
  if delivered == 0 {
    print("bench: \(impl) \(name) delivered nothing")
    exit(2)
  }
  return ns
}

/// As workloads.c: events that fill about maxMs, within [1000, 4M].
private func sizeFor(_ maxMs: Double, _ nsPerEvent: Double) -> Int {
  let n = maxMs * 1e6 / max(nsPerEvent, 0.1)
  return n < 1000 ? 1000 : n > 4e6 ? 4_000_000 : Int(n)
}

/// `SwiftBench --catalog MS [--impl NAME] name...`: per workload and implementation, the
/// warm-ups and the one timed run of `workloads --time MS`.
func catalogMain(_ impls: [CatalogImpl], _ args: [String]) {
  let (ms, only, names) = catalogArgs(args)
  for name in names {
    for impl in impls where only == nil || only == impl.name {
      guard let body = impl.bodies[name] else {
        print("RESULT \(name) \(impl.name) n/a (\(impl.missing[name] ?? missingReason(name)))")
        continue
      }
      var n = sizeFor(ms / 10, timeOne(name, impl.name, body, 1000))
      n = sizeFor(ms, timeOne(name, impl.name, body, n))
      let ns = timeOne(name, impl.name, body, n)
      print("RESULT \(name) \(impl.name) n=\(n) min_ns=\(fmt(ns, 3)) median_ns=\(fmt(ns, 3))")
      fflush(stdout)
    }
  }
}

/// Why a row has no body: the *_strings rows (boxed values through the lending, keeping and
/// handing-over paths) are written for librxc and RxCore only, to guard those paths.
private func missingReason(_ name: String) -> String {
  name.hasSuffix("_strings") ? "the string rows guard librxc's boxed-value paths (librxc and RxCore only)" : "not written"
}

/// `SwiftBench --catalog-count N [--impl NAME] name...`: what each body delivers for n events,
/// to compare with `workloads N name...` (the C workloads print the same count).
func catalogCountMain(_ impls: [CatalogImpl], _ args: [String]) {
  let (n, only, names) = catalogArgs(args)
  for name in names {
    for impl in impls where only == nil || only == impl.name {
      if let body = impl.bodies[name] { print("COUNT \(name) \(impl.name) \(body(Int(n)))") }
    }
  }
}

/// `SwiftBench --catalog-dump N --impl NAME [name...]`: each body (all of the implementation's
/// when none is named) run with n events between a zeroing and a dump of callgrind's counters
/// under its name, as Tests/perf/workloads.c does for the C ABI: one callgrind run gives the
/// per-workload counts that Tests/perf/metadata_guard.py compares at two sizes.
func catalogDumpMain(_ impls: [CatalogImpl], _ args: [String]) {
  let (n, only, named) = catalogArgs(args)
  for impl in impls where only == nil || only == impl.name {
    for name in named.isEmpty ? impl.bodies.keys.sorted() : named {
      guard let body = impl.bodies[name] else { continue }
      bench_callgrind_zero()
      let delivered = body(Int(n))
      bench_callgrind_dump("\(name)")
      if delivered == 0 {
        print("bench: \(impl.name) \(name) delivered nothing")
        exit(2)
      }
    }
  }
}

/// The arguments of both: a number (ms or events), then [--impl NAME], then workload names.
private func catalogArgs(_ args: [String]) -> (Double, String?, [String]) {
  var args = args
  guard let number = args.first.flatMap(Double.init) else { usage() }
  args.removeFirst()
  var only: String?
  if args.first == "--impl", args.count >= 2 {
    only = args[1]
    args.removeFirst(2)
  }
  return (number, only, args)
}

/// Four threads emitting n/4 events each into one subject with one subscriber, released
/// together; the time is the body's, thread creation included (ns per event = wall time / n).
let contendedThreads = 4

final class StartGate: @unchecked Sendable {
  private var mutex = pthread_mutex_t()
  private var cond = pthread_cond_t()
  private var open = false
  init() {
    pthread_mutex_init(&mutex, nil)
    pthread_cond_init(&cond, nil)
  }
  func wait() {
    pthread_mutex_lock(&mutex)
    while !open { pthread_cond_wait(&cond, &mutex) }
    pthread_mutex_unlock(&mutex)
  }
  func release() {
    pthread_mutex_lock(&mutex)
    open = true
    pthread_cond_broadcast(&cond)
    pthread_mutex_unlock(&mutex)
  }
}

/// Runs `emit(thread, count)` on `contendedThreads` threads at once; returns when all are done.
func runContended(_ n: Int, _ emit: @escaping @Sendable (Int, Int) -> Void) {
  final class Job: @unchecked Sendable {
    let gate: StartGate, index: Int, count: Int, emit: (Int, Int) -> Void
    init(_ gate: StartGate, _ index: Int, _ count: Int, _ emit: @escaping (Int, Int) -> Void) {
      self.gate = gate; self.index = index; self.count = count; self.emit = emit
    }
  }
  let gate = StartGate()
  var threads: [pthread_t] = []
  for t in 0..<contendedThreads {
    let job = Unmanaged.passRetained(Job(gate, t, n / contendedThreads, emit)).toOpaque()
    var th = pthread_t()
    pthread_create(&th, nil, { p in
      let job = Unmanaged<Job>.fromOpaque(p!).takeRetainedValue()
      job.gate.wait()
      job.emit(job.index, job.count)
      return nil
    }, job)
    threads.append(th)
  }
  gate.release()
  for th in threads { pthread_join(th, nil) }
}

/// The sum a contended run must deliver: thread t sends t*count ..< (t+1)*count.
func contendedSum(_ n: Int) -> Int64 { sumRange(n / contendedThreads * contendedThreads) }
