extension Observable {
  /// Merges the elements of all `sources`. Completes when all have completed (at once for
  /// none); the first error ends everything.
  public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
    SequenceObservable(ContiguousArray(sources)).flatMap { $0 }
  }
}
