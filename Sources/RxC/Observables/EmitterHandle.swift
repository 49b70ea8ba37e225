import CRxc
@_spi(RxC) import RxCore

/// The rx_emitter of one rx_create subscription: a C handle on the core sink.
final class EmitterHandle: Handle {
  let sink: AnonymousObservableSink<RxValue>

  init(_ sink: AnonymousObservableSink<RxValue>) {
    self.sink = sink
    super.init(kind: .emitter)
  }

  var cPointer: UnsafeMutablePointer<rx_emitter> {
    Unmanaged.passUnretained(self).toOpaque().assumingMemoryBound(to: rx_emitter.self)
  }

  static func from(_ p: UnsafeRawPointer?, _ fn: StaticString) -> EmitterHandle? {
    Validate.handle(p, .emitter, as: EmitterHandle.self, fn, "emitter")
  }
}
