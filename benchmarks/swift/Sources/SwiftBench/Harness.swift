import CBenchSupport
import Glibc

/// What one timed run measured: wall time and allocations of the measured region, and for
/// W9 the heap bytes per unit.
struct Measure {
  var t0: Int64 = 0, t1: Int64 = 0
  var a0: UInt64 = 0, a1: UInt64 = 0
  var bytesPerUnit: Double = 0

  mutating func begin() {
    a0 = allocationCount()
    t0 = nowNs()
  }

  mutating func end() {
    t1 = nowNs()
    a1 = allocationCount()
  }
}

typealias Body = (Int, inout Measure) -> Void

struct Workload {
  let name: String, title: String, unit: String
  let n: Int
  let quantum: Int
  /// Implementations by name ("rxcore", "opencombine"); nil: not available.
  var impls: [(String, Body?)]
  /// Why a nil implementation is missing.
  var missing: [String: String] = [:]
}

func nowNs() -> Int64 {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

private let counter: (@convention(c) () -> UInt64)? = {
  guard let p = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_count_total") else { return nil }
  return unsafeBitCast(p, to: (@convention(c) () -> UInt64).self)
}()

/// Allocations so far, when benchmarks/c/malloc_count.so is preloaded; 0 otherwise.
func allocationCount() -> UInt64 { counter?() ?? 0 }

func heapInUse() -> Int {
  Int(bench_heap_in_use())
}

func check(_ what: String, _ got: Int64, _ want: Int64) {
  if got == want { return }
  print("bench: \(what): got \(got), expected \(want)")
  exit(2)
}

func sumRange(_ n: Int) -> Int64 { Int64(n) * Int64(n - 1) / 2 }

func w3Expected(_ n: Int) -> Int64 {
  var sum: Int64 = 0
  for i in 0..<Int64(n) where (i + 1) & 1 == 0 { sum += 2 * (i + 1) }
  return sum
}

/// Where the subscriber's sums go; a class so closures and observers share it.
final class Sum {
  var sum: Int64 = 0
  var count: Int64 = 0
  var completed: Int64 = 0
}

func fmt(_ x: Double, _ digits: Int) -> String {
  var buf = [CChar](repeating: 0, count: 64)
  _ = withVaList([x]) { vsnprintf(&buf, 64, "%.\(digits)f", $0) }
  return String(cString: buf)
}

/// --max-ms: shrink n so one timed run takes about this long.
var maxMs = 0
/// --warm 1: warm up (and calibrate n) before a single run too (benchmarks/run.py runs the
/// suite R times with --runs 1 --warm 1).
var forceWarm = false

func run(_ w: Workload, _ impl: String, _ body: Body, n: Int, runs: Int) {
  var m = Measure()
  var n = n
  if (runs > 1 || forceWarm) && w.name != "W9" {  // warm-up, not counted; calibrates n
    // A lone timed run (--warm 1) warms up longer, as in bench.c.
    let warm = max(w.quantum, (runs > 1 ? n / 100 : n / 10) / w.quantum * w.quantum)
    body(warm, &m)
    let perUnit = Double(m.t1 - m.t0) / Double(warm)
    if maxMs > 0 && perUnit > 0 && perUnit * Double(n) > Double(maxMs) * 1e6 {
      n = max(100 * w.quantum, Int(Double(maxMs) * 1e6 / perUnit) / w.quantum * w.quantum)
    }
  }
  var ns: [Double] = []
  for _ in 0..<runs {
    m = Measure()
    body(n, &m)
    ns.append(Double(m.t1 - m.t0) / Double(n))
  }
  let sorted = ns.sorted()
  let median = runs % 2 == 1 ? sorted[runs / 2] : (sorted[runs / 2 - 1] + sorted[runs / 2]) / 2
  var line = "RESULT \(w.name) \(impl) n=\(n) min_ns=\(fmt(sorted[0], 3)) median_ns=\(fmt(median, 3)) allocs=\(m.a1 &- m.a0)"
  if m.bytesPerUnit > 0 { line += " bytes_per_unit=\(fmt(m.bytesPerUnit, 1))" }
  print(line + "   # \(w.title), ns per \(w.unit)")
}

func usage() -> Never {
  print("usage: SwiftBench [--runs R] [--scale S] [--max-ms T] [--warm 1] [--workload W1..W9] [--n N] [--impl rxcore|opencombine]")
  print("       SwiftBench --catalog MS [--impl rxcore|opencombine|rxswift] name...   (names: build/bench/workloads --list)")
  print("       SwiftBench --catalog-count N [--impl rxcore|opencombine|rxswift] name...   (events delivered for N sent)")
  print("       SwiftBench --catalog-dump N [--impl rxcore|opencombine|rxswift] [name...]   (under callgrind: a dump per workload)")
  exit(1)
}

func benchMain(_ workloads: [Workload]) {
  var only: String?, impl: String?
  var n = 0, runs = 0
  var scale = 1.0
  var args = Array(CommandLine.arguments.dropFirst())
  while !args.isEmpty {
    let flag = args.removeFirst()
    guard let value = args.first else { usage() }
    args.removeFirst()
    switch flag {
    case "--workload": only = value
    case "--impl": impl = value
    case "--n": n = Int(value) ?? 0
    case "--runs": runs = Int(value) ?? -1
    case "--scale": scale = Double(value) ?? 1
    case "--max-ms": maxMs = Int(value) ?? 0
    case "--warm": forceWarm = value != "0"
    default: usage()
    }
  }
  if runs < 0 { usage() }
  if runs == 0 { runs = only != nil && n > 0 ? 1 : 5 }
  var found = false
  for w in workloads where only == nil || only == w.name {
    found = true
    var size = n > 0 ? n : Int(Double(w.n) * scale)
    size = max(w.quantum, size / w.quantum * w.quantum)
    for (name, body) in w.impls where impl == nil || impl == name {
      if let body {
        run(w, name, body, n: size, runs: runs)
      } else {
        print("RESULT \(w.name) \(name) n/a (\(w.missing[name] ?? "not yet implemented"))   # \(w.title)")
      }
    }
  }
  if !found { usage() }
}
