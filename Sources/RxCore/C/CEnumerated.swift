
/// rx_enumerated and rx_timestamp: each element paired with a number, its index or (given a
/// `clock`) that scheduler's time when it arrived, as a two-item RX_ARRAY box, refilled in
/// place when the subscriber kept no reference to the last one (`SpareBox`): a stream
/// allocates one box, not a box and its storage per element. The Rx behaviour is the core's
/// (`handle`).
final class CEnumeratedSink: EnumeratedSink<Value, Value> {
  var spare = SpareBox<ArrayBox>()
  let clock: Scheduler?

  init(clock: Scheduler? = nil, observer: Observer<Value>, cancel: any Cancelable) {
    self.clock = clock
    super.init(pack: nil, observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Value>) { handle(event) }
  override var takesNextByPointer: Bool { true }
  /// The spare box lent to the subscriber by pointer (`SpareBox.lend`); a delivery that
  /// re-enters (an upstream that does not serialize) packs a box of its own.
  override func onNext(at element: UnsafePointer<Value>) {
    if spare.lending || isDisposed { return handleNext(at: element) }
    @inline(__always) func deliver(_ p: UnsafePointer<Value>) { forwardNext(at: p) }  // (a closure stayed a call)
    let first: Int64
    if _slowPath(clock != nil) {
      first = time()
    } else {
      guard let index = takeIndex() else { return }
      first = Int64(index)
    }
    spare.lend(
      refill: { b in
        b.items.withUnsafeMutableBufferPointer {
          $0.baseAddress.unsafelyUnwrapped.initialize(to: .int(first))  // an int: nothing to destroy
          $0[1] = Value.copy(at: element)
        }
      }, make: { ArrayBox([.int(first), Value.copy(at: element)]) }, to: deliver)
  }

  /// The clock's time (out of line: the index is the usual way).
  @inline(never) private func time() -> Int64 { clock.unsafelyUnwrapped.now }

  override func pack(_ index: Int, at element: UnsafePointer<Value>) -> Value {
    let first = clock == nil ? Int64(index) : time()
    let item = Value.copy(at: element)
    return spare.next(
      refill: {
        $0.items[0] = .int(first)
        $0.items[1] = item
      }, make: { ArrayBox([.int(first), item]) })
  }
}
