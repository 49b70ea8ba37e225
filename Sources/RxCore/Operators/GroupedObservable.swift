/// One group of `groupBy`: the source elements whose key is `key`, as a hot observable.
/// Subscribers see the elements that arrive while they are subscribed, then the source's
/// terminal event (a subscriber that comes after it gets that event at once).
///
/// Each subscription holds the source subscription alive (`RefCountDisposable.retain()`):
/// the source stays subscribed while any group is, even after the outer subscription was
/// disposed. A group subscribed after the source subscription ended gets no element; it
/// gets the terminal event if the source ended with one.
public class GroupedObservable<Key, Element>: Observable<Element> {
  public let key: Key
  let subject: PublishSubject<Element>
  let refCount: RefCountDisposable

  init(key: Key, subject: PublishSubject<Element>, refCount: RefCountDisposable) {
    self.key = key
    self.subject = subject
    self.refCount = refCount
    super.init()
    Resources.increment()
  }

  deinit { Resources.decrement() }

  public override func subscribe(_ observer: Observer<Element>) -> any Disposable {
    let hold = refCount.retain()
    // Unsubscribed first: the observer leaves before the source may be disposed.
    return BinaryDisposable(subject.attach(observer), hold)
  }
}

// rx:hand-leaf: public (RxC hands groups to C); the generator writes internal leaves.
// Specialized for Value (see Value): the override inlines the generic body.
@_spi(RxC) public final class ValueGroupedObservable: GroupedObservable<ValueKey, Value> {
  public override func subscribe(_ observer: Observer<Value>) -> any Disposable { super.subscribe(observer) }
}
