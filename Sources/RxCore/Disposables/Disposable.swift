/// Something that can be cancelled. Class-bound so an existential is two words, no box.
public protocol Disposable: AnyObject {
  func dispose()
}

/// A disposable that can tell whether it was disposed.
public protocol Cancelable: Disposable {
  var isDisposed: Bool { get }
}
