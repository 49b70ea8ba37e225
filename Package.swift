// swift-tools-version:6.0
// librxc: the Swift Rx core (RxCore), its C ABI layer (RxC) and the shipped librxc.so.
import PackageDescription

let root = Context.packageDirectory
// The shipped library (`make`) links the Swift runtime statically and exports only rx_
// symbols. XCTest cannot link a static runtime, so `swift test` builds without it.
let shipped = Context.environment["RXC_STATIC_STDLIB"] == "1"
// Sanitizer builds of the C harness need the runtime shared (see Makefile `sanitize`).
let hotFlags: [String] = ["-enforce-exclusivity=unchecked"]

var abiLinker: [LinkerSetting] = []
if shipped {
  abiLinker = [.unsafeFlags([
    "-static-stdlib", "-use-ld=lld",
    "-Xlinker", "--version-script=\(root)/Sources/RxC/exports.map",
    "-Xlinker", "--exclude-libs=ALL",
    "-Xlinker", "-soname=librxc.so.0",
    // Never unmapped by dlclose: the library's own threads (schedulers, timers) may still be
    // running its code when an FFI (cffi, ctypes, LuaJIT) drops its handle at exit.
    "-Xlinker", "-z", "-Xlinker", "nodelete",
  ])]
}

let package = Package(
  name: "librxc",
  products: [
    .library(name: "rxc", type: .dynamic, targets: ["RxC"]),
    .library(name: "RxCore", targets: ["RxCore"]),
  ],
  targets: [
    // The C types of include/rxc.h, seen from Swift, plus a few C helpers (thread-local
    // last-error buffer). Not exported.
    .target(name: "CRxc"),
    // What the core needs of C: a process-wide barrier, a compiler fence, a thread identity.
    .target(name: "CRxcCore"),
    // RxCore's live-object counters (per-thread, in C for initial-exec TLS). Not exported.
    .target(name: "CRxResources"),
    // The Rx core: generic over the element type; its C end (Sources/RxCore/C, the observer
    // end) calls C callbacks with the value and function types of include/rxc.h, no handles.
    .target(
      name: "RxCore",
      dependencies: ["CRxc", "CRxcCore", "CRxResources"],
      swiftSettings: [.unsafeFlags(hotFlags + ["-cross-module-optimization"])]),
    // The C ABI: @c exports, handles and their validation, reading C values. No Rx logic.
    .target(
      name: "RxC",
      dependencies: ["CRxc", "CRxcCore", "RxCore"],
      exclude: ["exports.map"],
      swiftSettings: [.unsafeFlags(hotFlags + [
        "-emit-clang-header-path", "\(root)/build/gen/rxc-swift.h",
      ])],
      linkerSettings: abiLinker),
    .testTarget(name: "RxCoreTests", dependencies: ["RxCore"]),
  ],
  swiftLanguageModes: [.v5]
)
