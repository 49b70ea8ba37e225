// swift-tools-version:6.0
// The Swift side of `make bench`: the issue-6 workloads and the operator catalog on OpenCombine
// 0.14.0 and on librxc's Swift core (RxCore) called directly, so the C ABI's own cost is
// visible; with RXSWIFT_PATH set to a RxSwift 6 checkout, the catalog on RxSwift too. Built by
// benchmarks/run.py with its own scratch path (benchmarks/.build-swift, gitignored).
import PackageDescription

// RxSwift is optional: a dependency only when RXSWIFT_PATH names a checkout, so `make bench`
// needs nothing more without it (RxSwiftCatalog.swift compiles under canImport(RxSwift)).
let rxSwiftPath = Context.environment["RXSWIFT_PATH"].flatMap { $0.isEmpty ? nil : $0 }
// A path dependency's package name is its directory's name.
let rxSwiftPackage = rxSwiftPath.map { path in
  String(path.split(separator: "/").last ?? "RxSwift")
}

// RXC_BENCH_RXCORE_ONLY=1: RxCore alone (the Swift metadata guard of `make test` builds this
// package so, with nothing to fetch); OpenCombine's rows are then n/a.
let rxCoreOnly = Context.environment["RXC_BENCH_RXCORE_ONLY"] == "1"

var dependencies: [Package.Dependency] = [
  .package(name: "librxc", path: "../.."),
]
var benchDependencies: [Target.Dependency] = [
  "CBenchSupport",
  .product(name: "RxCore", package: "librxc"),
]
if !rxCoreOnly {
  dependencies.append(.package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"))
  benchDependencies += [
    .product(name: "OpenCombine", package: "OpenCombine"),
    .product(name: "OpenCombineDispatch", package: "OpenCombine"),
  ]
}
if let rxSwiftPath, let rxSwiftPackage {
  dependencies.append(.package(path: rxSwiftPath))
  benchDependencies += [
    .product(name: "RxSwift", package: rxSwiftPackage),
    .product(name: "RxRelay", package: rxSwiftPackage),
  ]
}

let package = Package(
  name: "rxc-swift-bench",
  dependencies: dependencies,
  targets: [
    // mallinfo2(), which Swift's Glibc module does not import.
    .target(name: "CBenchSupport"),
    .executableTarget(
      name: "SwiftBench",
      dependencies: benchDependencies,
      swiftSettings: [.unsafeFlags(["-cross-module-optimization"])]),
  ],
  swiftLanguageModes: [.v5]
)
