import Synchronization

/// An observer that a sink made for one of its sources or inner observables: it hands each
/// event to that sink (`parent`) with its `tag` (a source's index, an inner's id), by a
/// direct call that each subclass's `on` makes.
class ChildObserver<Element, Parent: AnyObject, Tag>: Observer<Element> {
  let parent: Parent
  let tag: Tag

  init(parent: Parent, tag: Tag) {
    self.parent = parent
    self.tag = tag
  }
}

extension ChildObserver where Tag == Void {
  convenience init(parent: Parent) { self.init(parent: parent, tag: ()) }
}

/// An inner observer that is also the disposable of its own subscription (one object, no
/// SingleAssignmentDisposable next to it): `attach` and `dispose` may race; whichever comes
/// second disposes the subscription.
class SubscribedObserver<Element, Parent: AnyObject, Tag>: ChildObserver<Element, Parent, Tag>, Disposable {
  // Guarded by `lock` (a swap of one reference: no allocation, unlike a Mutex).
  private let lock = SpinLock()
  private var slot = DisposableSlot()

  /// Called once, with what `subscribe` returned.
  final func attach(_ d: any Disposable) {
    lock.lock()
    let disposeNow = slot.disposed
    if !disposeNow { slot.held = d }
    lock.unlock()
    if disposeNow { d.dispose() }
  }

  final func dispose() {
    // (Not `d?.dispose()`: that retains and releases it around the call.)
    lock.lock()
    let d = slot.disposeOnce()
    lock.unlock()
    if let d { d.dispose() }
  }
}
