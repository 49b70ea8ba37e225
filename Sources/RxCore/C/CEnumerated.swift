
/// rx_enumerated: each element and its index as a two-item RX_ARRAY box, refilled in place
/// when the subscriber kept no reference to the last one (`SpareBox`): a stream allocates one
/// box, not a box and its storage per element. The Rx behaviour is the core's (`handle`).
final class CEnumeratedSink: EnumeratedSink<Value, Value> {
  var spare = SpareBox<ArrayBox>()

  override func on(_ event: Event<Value>) { handle(event) }
  override var takesNextByPointer: Bool { true }
  /// The spare box lent to the subscriber by pointer (`SpareBox.lend`); a delivery that
  /// re-enters (an upstream that does not serialize) packs a box of its own.
  override func onNext(at element: UnsafePointer<Value>) {
    if spare.lending || isDisposed { return handleNext(at: element) }
    guard let index = takeIndex() else { return }
    spare.lend(
      refill: { b in
        b.items.withUnsafeMutableBufferPointer {
          $0.baseAddress.unsafelyUnwrapped.initialize(to: .int(Int64(index)))  // an int: nothing to destroy
          $0[1] = Value.copy(at: element)
        }
      }, make: { ArrayBox([.int(Int64(index)), Value.copy(at: element)]) }
    ) { forwardNext(at: $0) }
  }

  override func pack(_ index: Int, at element: UnsafePointer<Value>) -> Value {
    let item = Value.copy(at: element)
    return spare.next(
      refill: {
        $0.items[0] = .int(Int64(index))
        $0.items[1] = item
      }, make: { ArrayBox([.int(Int64(index)), item]) })
  }
}
