
/// rx_enumerated: each element and its index as a two-item RX_ARRAY box, refilled in place
/// when the subscriber kept no reference to the last one (`SpareBox`): a stream allocates one
/// box, not a box and its storage per element. The Rx behaviour is the core's (`handle`).
final class CEnumeratedSink: EnumeratedSink<Value, Value> {
  var spare = SpareBox<ArrayBox>()
  /// A pair is being delivered in the spare box, unretained (see `onNext(at:)`).
  var lending = false

  init(observer: Observer<Value>, cancel: any Cancelable) {
    super.init(pack: nil, observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Value>) { handle(event) }
  override var takesNextByPointer: Bool { true }
  /// The spare box lent to the subscriber by pointer: no retain and release of it per element.
  /// A delivery that re-enters (an upstream that does not serialize) packs a box of its own.
  override func onNext(at element: UnsafePointer<Value>) {
    if lending || isDisposed { return handleNext(at: element) }
    guard let index = takeIndex() else { return }
    let box: Unmanaged<ArrayBox>
    if let kept = spare.reusable() {
      kept._withUnsafeGuaranteedRef { b in
        b.items.withUnsafeMutableBufferPointer {
          $0.baseAddress.unsafelyUnwrapped.initialize(to: .int(Int64(index)))  // an int: nothing to destroy
          $0[1] = Value.copy(at: element)
        }
      }
      box = kept
    } else {
      box = spare.keep(ArrayBox([.int(Int64(index)), Value.copy(at: element)]))
    }
    lending = true
    Value.withBorrowedBoxed(unsafeBitCast(box, to: Unmanaged<AnyObject>.self)) { forwardNext(at: $0) }
    lending = false
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
