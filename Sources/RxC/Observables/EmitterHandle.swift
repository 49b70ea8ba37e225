import CRxc
@_spi(RxC) import RxCore

/// The rx_emitter of one rx_create subscription: a C handle on the core sink.
final class EmitterHandle: Handle {
  /// A `let`, read per element with no retain (rx_emitter_next).
  let sink: AnonymousObservableSink<RxValue>

  init(_ sink: AnonymousObservableSink<RxValue>) {
    self.sink = sink
    super.init(kind: .emitter)
  }

  /// A poisoned handle is never deinitialized (Handle keeps it for ever under RXC_DEBUG), so
  /// it lets go of its sink by hand, as SubjectHandle does of its subject: no entry point
  /// reads a poisoned handle's fields again.
  override func poisoned() { Unmanaged.passUnretained(sink).release() }

  var cPointer: UnsafeMutablePointer<rx_emitter> {
    Unmanaged.passUnretained(self).toOpaque().assumingMemoryBound(to: rx_emitter.self)
  }

  static func from(_ p: UnsafeRawPointer?, _ fn: StaticString) -> EmitterHandle? {
    Validate.handle(p, .emitter, as: EmitterHandle.self, fn, "emitter")
  }
}
