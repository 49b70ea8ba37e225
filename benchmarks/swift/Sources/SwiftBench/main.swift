// SwiftBench: the issue-6 workloads on RxCore (librxc's Swift core, called directly) and on
// OpenCombine, same output format as benchmarks/c/bench; with --catalog, the catalog of
// Tests/perf/workloads.c on RxCore, OpenCombine and (when built with it) RxSwift.
import Glibc
if CommandLine.arguments.count > 1 && CommandLine.arguments[1].hasPrefix("--catalog") {
  var impls = [RxCoreCatalog.impl, OpenCombineCatalog.impl]
  if let rx = rxSwiftCatalog { impls.append(rx) }
  let args = Array(CommandLine.arguments.dropFirst(2))
  switch CommandLine.arguments[1] {
  case "--catalog": catalogMain(impls, args)
  case "--catalog-count": catalogCountMain(impls, args)
  case "--catalog-dump": catalogDumpMain(impls, args)
  default: usage()
  }
  exit(0)
}
let o = OpenCombineBench.self
let r = RxCoreBench.self
benchMain([
  Workload(name: "W1", title: "publish subject -> 1 subscriber", unit: "event", n: 10_000_000,
           quantum: 1, impls: [("rxcore", r.w1), ("opencombine", o.w1)]),
  Workload(name: "W2", title: "publish subject -> 100 subscribers", unit: "delivery",
           n: 10_000_000, quantum: 100, impls: [("rxcore", r.w2), ("opencombine", o.w2)]),
  Workload(name: "W3", title: "range -> map -> filter -> map", unit: "element", n: 10_000_000,
           quantum: 1, impls: [("rxcore", r.w3), ("opencombine", o.w3)]),
  Workload(name: "W4", title: "subscribe + dispose on a subject", unit: "pair", n: 1_000_000,
           quantum: 1, impls: [("rxcore", r.w4), ("opencombine", o.w4)]),
  Workload(name: "W5", title: "just -> map -> subscribe lifecycle", unit: "lifecycle",
           n: 1_000_000, quantum: 1, impls: [("rxcore", r.w5), ("opencombine", o.w5)]),
  Workload(name: "W6", title: "subject -> observe_on(serial) -> subscriber", unit: "event",
           n: 1_000_000, quantum: 1, impls: [("rxcore", r.w6), ("opencombine", o.w6)]),
  Workload(name: "W7", title: "replay(100), late subscriber", unit: "replayed value",
           n: 10_000_000, quantum: 100, impls: [("rxcore", r.w7), ("opencombine", nil)],
           missing: ["opencombine": "Combine has no replay subject"]),
  Workload(name: "W8", title: "range -> flat_map(just)", unit: "element", n: 1_000_000,
           quantum: 1, impls: [("rxcore", r.w8), ("opencombine", o.w8)]),
  Workload(name: "W9", title: "memory per live subscription", unit: "subscription",
           n: 1_000_000, quantum: 1, impls: [("rxcore", r.w9), ("opencombine", o.w9)]),
])
