// swift-tools-version:6.0
// The Swift side of `make bench`: the issue-6 workloads on OpenCombine 0.14.0 and on librxc's
// Swift core (RxCore) called directly, so the C ABI's own cost is visible. Built by
// benchmarks/run.sh with its own scratch path (benchmarks/.build-swift, gitignored).
import PackageDescription

let package = Package(
  name: "rxc-swift-bench",
  dependencies: [
    .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    .package(name: "librxc", path: "../.."),
  ],
  targets: [
    // mallinfo2(), which Swift's Glibc module does not import.
    .target(name: "CBenchSupport"),
    .executableTarget(
      name: "SwiftBench",
      dependencies: [
        "CBenchSupport",
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "OpenCombineDispatch", package: "OpenCombine"),
        .product(name: "RxCore", package: "librxc"),
      ],
      swiftSettings: [.unsafeFlags(["-cross-module-optimization"])]),
  ],
  swiftLanguageModes: [.v5]
)
