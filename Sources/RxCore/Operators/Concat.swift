extension Observable {
  /// The elements of each source in turn: the next is subscribed after the previous one
  /// completed. Completes after the last one (at once for none).
  public static func concat(_ sources: [Observable<Element>]) -> Observable<Element> {
    SequenceObservable(ContiguousArray(sources)).concatMap { $0 }
  }

  /// This sequence, then `other`.
  public func concat(_ other: Observable<Element>) -> Observable<Element> {
    Observable.concat([self, other])
  }
}
