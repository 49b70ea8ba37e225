import RxCore

/// rx_enumerated: each element and its index as a two-item RX_ARRAY box, refilled in place
/// when the subscriber kept no reference to the last one (`SpareBox`): a stream allocates one
/// box, not a box and its storage per element. The Rx behaviour is the core's (`handle`).
final class CEnumeratedSink: EnumeratedSink<RxValue, RxValue> {
  var spare = SpareBox<ArrayBox>()

  init(observer: Observer<RxValue>, cancel: any Cancelable) {
    super.init(pack: nil, observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<RxValue>) { handle(event) }
  override var takesNextByPointer: Bool { true }
  override func onNext(at element: UnsafePointer<RxValue>) { handleNext(at: element) }

  override func pack(_ index: Int, at element: UnsafePointer<RxValue>) -> RxValue {
    let item = Value.copy(at: element)
    return spare.next(
      refill: {
        $0.items[0] = .int(Int64(index))
        $0.items[1] = item
      }, make: { ArrayBox([.int(Int64(index)), item]) })
  }
}
