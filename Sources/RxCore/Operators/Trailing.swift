/// skipLast and takeLast: one producer and one sink that hold back the newest `count`
/// elements; the `Rule` (a type parameter, folded away in each sink's code) says what
/// becomes of them.
protocol TrailingRule {
  /// skipLast: an element pushed out of the held ones is forwarded at once, and the held
  /// ones are dropped at the end. takeLast: it is dropped, and the held ones are forwarded
  /// when the source completes.
  static var forwardsEvicted: Bool { get }
}

// rx:value-leaf name=ValueSkipLastProducer args=Value,SkipLastRule copy=run
// rx:value-leaf name=ValueTakeLastProducer args=Value,TakeLastRule copy=run
class TrailingProducer<Element, Rule: TrailingRule>: Producer<Element> {
  let source: Observable<Element>
  let count: Int

  init(source: Observable<Element>, count: Int) {
    self.source = source
    self.count = count
  }

  override func run(_ observer: Observer<Element>, cancel: any Cancelable)
    -> (sink: any Disposable, subscription: any Disposable)
  {
    let sink = TrailingSink<Element, Rule>(count: count, observer: observer, cancel: cancel)
    let subscription = source.subscribe(sink)
    return (consume sink, subscription)
  }
}

// rx:value-leaf name=ValueSkipLastSink args=Value,SkipLastRule on next=next
// rx:value-leaf name=ValueTakeLastSink args=Value,TakeLastRule on next=copy
class TrailingSink<Element, Rule: TrailingRule>: Sink<Element, Element> {
  let count: Int
  /// The newest elements, at most `count`: the ones that may still turn out to be last.
  var held = RingBuffer<Element>()

  init(count: Int, observer: Observer<Element>, cancel: any Cancelable) {
    self.count = count
    super.init(observer: observer, cancel: cancel)
  }

  override func on(_ event: Event<Element>) {
    switch event {
    case .next(let element):
      if Rule.forwardsEvicted {
        _withUnprotectedUnsafePointer(to: element) { next(at: $0) }
      } else if count > 0 {
        // The event's own element kept (takeLast's leaf copies it into an event once).
        held.append(element, keepingLast: count)
      }
    case .error:
      held.removeAll()
      forwardTerminal(event)
    case .completed:
      if Rule.forwardsEvicted {
        held.removeAll()
      } else {
        while let element = held.popFirst() {
          if wantsNoMoreEvents { break }
          forwardNext(owned: element)
        }
      }
      forwardTerminal(.completed)
    }
  }

  /// `on(.next)` of the element at `element`: kept, and the oldest kept one pushed out
  /// (forwarded or dropped); with nothing to hold back, forwarded where it is or dropped.
  @inline(__always) final func next(at element: UnsafePointer<Element>) {
    if count == 0 {
      if Rule.forwardsEvicted { forwardNext(at: element) }
      return
    }
    if Rule.forwardsEvicted {
      held.append(element.pointee)
      if held.count > count, let oldest = held.popFirst() { forwardNext(owned: oldest) }
    } else {
      held.append(element.pointee, keepingLast: count)
    }
  }
}
