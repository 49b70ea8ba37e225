/// A sink with several sources (zip, combine_latest, amb): each source's events reach it
/// tagged with the source's index.
class IndexedSink<Source, Result>: Sink<Source, Result> {
  /// One per source, in order.
  let subscriptions: [SingleAssignmentDisposable]

  init(count: Int, observer: Observer<Result>, cancel: any Cancelable) {
    subscriptions = (0..<count).map { _ in SingleAssignmentDisposable() }
    super.init(observer: observer, cancel: cancel)
  }

  /// Subscribes each source in order while anyone wants events. A source whose subscription
  /// is disposed already (amb: it lost to an earlier one while that was subscribed) is not
  /// subscribed at all.
  final func subscribeAll(_ sources: [Observable<Source>]) -> any Disposable {
    for i in sources.indices {
      if wantsNoMoreEvents { break }
      if subscriptions[i].isDisposed { continue }
      subscriptions[i].trySet(sources[i].subscribe(makeObserver(i)))
    }
    return CompositeDisposable(disposables: subscriptions)
  }

  /// The observer of the i-th source (a hook for the Value leaf).
  func makeObserver(_ index: Int) -> Observer<Source> {
    IndexedObserver(parent: self, tag: index)
  }

  /// One event of source `index`. Overridden by each sink (and again by its Value leaf, so
  /// the call from the observer lands in specialized code).
  func submit(_ index: Int, _ event: Event<Source>) {}

  /// An element of source `index` by pointer (what a Value observer gets). This default
  /// copies it into `submit`; a sink that can take it where it is overrides it (and its
  /// Value leaf again, as for `submit`).
  func submitNext(_ index: Int, at element: UnsafePointer<Source>) { submit(index, .next(element.pointee)) }
}

// rx:value-leaf on next={parent.submitNext(tag, at: element)} super=wantsNoMoreEvents
/// The observer a multi-source sink subscribes to its i-th source (`tag`): a source that
/// drops it (a disposed subject) is treated as one that never emits again.
class IndexedObserver<Source, Result>: ChildObserver<Source, IndexedSink<Source, Result>, Int> {
  override func on(_ event: Event<Source>) { parent.submit(tag, event) }
  override var wantsNoMoreEvents: Bool { parent.wantsNoMoreEvents }
}
