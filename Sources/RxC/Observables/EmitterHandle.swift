import CRxc
@_spi(RxC) import RxCore

/// The rx_emitter of one rx_create subscription: a C handle on the core sink.
final class EmitterHandle: Handle {
  /// Unmanaged, so that a handle poisoned under RXC_DEBUG can let go of the sink (no entry
  /// point reaches a poisoned handle's sink again).
  private let sinkRef: Unmanaged<AnonymousObservableSink<RxValue>>
  private var holdsSink = true

  init(_ sink: AnonymousObservableSink<RxValue>) {
    self.sinkRef = Unmanaged.passRetained(sink)
    super.init(kind: .emitter)
  }

  deinit {
    if holdsSink { sinkRef.release() }
  }

  override func poisoned() {
    holdsSink = false
    sinkRef.release()
  }

  /// The sink, for as long as the caller holds this handle.
  var sink: AnonymousObservableSink<RxValue> { sinkRef.takeUnretainedValue() }

  /// The sink lent to `body` with no retain (rx_emitter_next, per element).
  @inline(__always)
  func withSink<R>(_ body: (AnonymousObservableSink<RxValue>) -> R) -> R {
    sinkRef._withUnsafeGuaranteedRef(body)
  }

  var cPointer: UnsafeMutablePointer<rx_emitter> {
    Unmanaged.passUnretained(self).toOpaque().assumingMemoryBound(to: rx_emitter.self)
  }

  static func from(_ p: UnsafeRawPointer?, _ fn: StaticString) -> EmitterHandle? {
    Validate.handle(p, .emitter, as: EmitterHandle.self, fn, "emitter")
  }
}
