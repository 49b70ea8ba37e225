/// The observer a multi-source sink subscribes to its i-th source: tags each event with
/// the index and hands it to the sink. A source that drops it (a disposed subject) is
/// treated as one that never emits again.
class IndexedObserver<Element>: Observer<Element> {
  let parent: Observer<Element>
  let index: Int
  let handler: (Int, Event<Element>) -> Void

  init(parent: Observer<Element>, index: Int, _ handler: @escaping (Int, Event<Element>) -> Void) {
    self.parent = parent
    self.index = index
    self.handler = handler
  }

  override func on(_ event: Event<Element>) { handler(index, event) }

  override var wantsNoMoreEvents: Bool { parent.wantsNoMoreEvents }
}

// Specialized for Value (see Value): made by the sinks' Value leaves.
final class ValueIndexedObserver: IndexedObserver<Value> {
  override func on(_ event: Event<Value>) { super.on(event) }
  override var wantsNoMoreEvents: Bool { super.wantsNoMoreEvents }
}
