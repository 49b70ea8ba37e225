@_spi(RxC) import RxCore

/// The element type the C ABI instantiates the Swift core with: the core's `Value`, whose
/// boxed payloads are, on this side, always `ValueBox`es (every boxed value the ABI sees was
/// made by this library), held with ARC, so the core copies and frees them.
typealias RxValue = Value
